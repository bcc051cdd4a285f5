package io.inferbench.probe;

import io.inferbench.BenchmarkException;
import io.inferbench.measure.CellLoop;
import io.inferbench.measure.MeasureOutcome;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.measure.NanoClock;
import io.inferbench.measure.PassRecorder;
import io.inferbench.measure.StopPolicy;
import io.inferbench.measure.WarmupPolicy;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The built-in readings are probes of the one interface, listed in the one service file, each landing in its place. */
class ProbesTest {
    @Test
    void theServiceFileListsEveryBuiltInReadingInOrder() {
        assertEquals(List.of("cpu", "energy", "gc", "pageFaults"), Probe.all().stream().map(Probe::name).toList());
    }

    @Test
    void aMeasurementPutsEachBuiltInReadingInItsPlaceAndTheOthersUnderProbes() {
        PassRecorder recorder = new PassRecorder(NanoClock.SYSTEM);
        MeasurePolicy policy = new MeasurePolicy(WarmupPolicy.untilSteady(0.05, 100), new StopPolicy(200, 0.02, 0.95, 2, 0, 1000));
        MeasureOutcome outcome = new CellLoop(recorder, policy, NanoClock.SYSTEM, () -> -1, Probe.all(), 1, 4)
                .measure(() -> {
                    long until = System.nanoTime() + 200_000; // busy, so the process's CPU time moves
                    long sum = 0;
                    while (System.nanoTime() < until) {
                        sum += new byte[256].length; // and the heap too
                    }
                    return sum;
                });
        assertNotNull(outcome.energy(), "energy, or why not");
        assertTrue(outcome.energy().unavailable() != null || outcome.energy().joulesPer1000Samples() != null, outcome.energy().toString());
        assertNotNull(outcome.gc(), "HotSpot notifies its collections, so the measurement says how many it held");
        assertTrue(outcome.gc().collections() >= 0 && outcome.gc().totalMs() >= 0, outcome.gc().toString());
        assertEquals(List.of("pageFaults"), List.copyOf(outcome.probes().keySet()), "only a probe without a typed place");
        if (outcome.cpu() != null) { // the JVM's process CPU time advances in 10 ms steps: 40 ms of busy passes move it
            assertTrue(outcome.cpu().wallMs() > 0, outcome.cpu().toString());
        }
    }

    @Test
    void twoProbesOfOneNameAreRefusedNamingBoth() {
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> Probe.Registry.unique(List.of(new PageFaults(), new CpuTime(), new PageFaults())));
        assertTrue(e.getMessage().startsWith("Two probes are named 'pageFaults': io.inferbench.probe.PageFaults and "
                + "io.inferbench.probe.PageFaults"), e.getMessage());
        assertTrue(e.getMessage().contains("rename one of them"), e.getMessage());
    }

    @Test
    void aReplacementTakesThePlaceOfTheProbeOfItsName() {
        CpuTime fake = new CpuTime(CpuProbe.NONE, 2);
        List<Probe<?>> probes = Probe.replacing(Probe.all(), fake);
        assertEquals(Probe.all().size(), probes.size());
        assertTrue(probes.get(0) == fake, "in the built-in's place, first");
    }
}
