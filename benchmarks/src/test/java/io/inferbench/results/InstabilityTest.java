package io.inferbench.results;

import com.fasterxml.jackson.databind.JsonNode;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.MeasureEnd;
import io.inferbench.measure.MeasureOutcome;
import io.inferbench.measure.PassRecorder;
import io.inferbench.measure.SetAside;
import io.inferbench.measure.WarmupEnd;
import io.inferbench.measure.WarmupOutcome;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cell whose numbers changed under the harness's feet says so: the subject ten times slower after its first calls (set
 * aside at 0.60 ms, kept at 6.00 ms), and forks far apart; a disturbance that slowed the set-aside measurement by what the
 * other processes took is no instability, nor are forks a few percent apart.
 */
class InstabilityTest {
    private static final CellResult.Session SESSION = new CellResult.Session(null, 1, 1, null, null, "cpu", null);

    private static String passes(double ms) {
        Histogram h = PassRecorder.newHistogram();
        h.recordValueWithCount(Math.round(ms * 1e6), 200);
        return HistogramCodec.encode(h);
    }

    /** A cell whose forks kept these p50s, each fork with the measurements it set aside. */
    private static CellResult cell(double[] keptMs, List<List<SetAside>> setAside) {
        List<String> histograms = new ArrayList<>();
        List<CellFork> forks = new ArrayList<>();
        for (int i = 0; i < keptMs.length; i++) {
            histograms.add(passes(keptMs[i]));
            MeasureOutcome m = MeasureOutcome.of(200, 100, 100, null, 1.0, 0.95, MeasureEnd.PRECISE, io.inferbench.probe.Probe.Readings.NONE);
            forks.add(new CellFork(i + 1, 100 + i, 0, keptMs[i], new WarmupOutcome(10, 10, null, WarmupEnd.STEADY),
                    setAside.get(i).isEmpty() ? m : m.withSetAside(setAside.get(i))));
        }
        LatencySummary latency = LatencySummary.of(HistogramCodec.decode(histograms.get(0)));
        return new CellResult(CellStatus.OK, null, new CellResult.Identity("example.Service", "cpu", "none", null, 64, 1),
                new CellResult.Counts(keptMs.length, 10, 200), new CellResult.Latency(latency, null, 1.0), null, SESSION,
                new CellResult.Histograms(histograms.get(0), keptMs.length > 1 ? histograms : null), CellResult.ForkRecords.of(forks));
    }

    @Test
    void aSubjectThatSlowsDownAfterItsFirstCallsIsUnstable() throws Exception {
        CellResult slowed = cell(new double[]{6.00}, List.of(List.of(new SetAside(1000, 600, 0.60, 22))));
        String why = slowed.unstable();
        assertTrue(why != null && why.contains("kept a re-measurement at p50 6.00") && why.contains("where the measurement it "
                + "set aside as disturbed read 0.600 ms"), why);
        JsonNode json = Json.mapper().valueToTree(slowed);
        assertEquals(why, json.path("unstable").asText(), "run.json says it");
    }

    @Test
    void forksFarApartAreUnstableAndForksCloseTogetherAreNot() {
        assertTrue(cell(new double[]{1.0, 1.02, 2.4}, List.of(List.of(), List.of(), List.of())).unstable()
                .contains("its undisturbed forks' p50s range from 1.000 to 2.400 ms (2.4x apart)"));
        assertNull(cell(new double[]{1.0, 1.04, 0.97}, List.of(List.of(), List.of(), List.of())).unstable());
    }

    @Test
    void aDisturbanceTheOtherProcessesExplainIsNoInstability() {
        assertNull(cell(new double[]{1.0}, List.of(List.of(new SetAside(100, 100, 1.9, 50)))).unstable(),
                "half the machine taken: up to twice as slow, and then some, is explained");
        assertTrue(cell(new double[]{1.0}, List.of(List.of(new SetAside(100, 100, 4.0, 20)))).unstable()
                .contains("more apart than the 20% other processes took explains"));
    }

    /**
     * A fork kept disturbed after its tries measured the machine's noise (four busy loops beside a run read kept
     * re-measurements above what they set aside in most cells): it is held to none of these rules.
     */
    @Test
    void aForkKeptDisturbedIsNotHeldToTheRules() {
        CellResult quiet = cell(new double[]{6.00}, List.of(List.of(new SetAside(1000, 600, 4.0, 60))));
        assertTrue(quiet.unstable() != null, "kept undisturbed: the subject slowed");
        CellFork fork = quiet.forkRuns().get(0);
        CellFork busy = new CellFork(fork.round(), fork.pid(), fork.positionInJvm(), fork.firstPassMs(), fork.warmup(),
                new MeasureOutcome(200, 100, 100, null, 1.0, 0.95, MeasureEnd.PRECISE,
                        new io.inferbench.probe.CpuUse(100, 100.0, 50.0, 130.0, 65.0, List.of()), null, null, null,
                        fork.measurement().setAside(), null));
        CellResult disturbed = new CellResult(quiet.status(), null, quiet.identity(), new CellResult.Counts(1, 10, 200),
                quiet.latency(), null, SESSION, new CellResult.Histograms(quiet.histogramNs(), null), CellResult.ForkRecords.of(List.of(busy)));
        assertNull(disturbed.unstable(), "kept disturbed: the machine's noise, which its doubts say");
    }
}
