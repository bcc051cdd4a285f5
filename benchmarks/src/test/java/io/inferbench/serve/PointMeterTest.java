package io.inferbench.serve;

import io.inferbench.probe.CpuProbe;
import io.inferbench.probe.CpuTime;
import io.inferbench.probe.EnergyUse;
import io.inferbench.results.PointResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A load point's resources from readings before and after it: energy per completed request, CPU against every core. */
class PointMeterTest {
    @Test
    void energyPerRequestIsThePointsJoulesOverItsCompletedRequests(@TempDir Path powercap) throws IOException {
        Files.createDirectories(powercap.resolve("intel-rapl:0"));
        Path counter = powercap.resolve("intel-rapl:0/energy_uj");
        Files.writeString(counter, "1000000\n");
        long[] cpuNs = {0};
        double[] busyMs = {0};
        CpuProbe probe = () -> new CpuProbe.Snapshot(cpuNs[0], busyMs[0], Map.of());
        PointMeter meter = new PointMeter(List.of(new CpuTime(probe, 4), new EnergyUse.Rapl(powercap)), null, 4);
        PointMeter.Start start = meter.start();
        Files.writeString(counter, "26000000\n"); // 25 J over the point
        cpuNs[0] = 2_000_000_000L;
        busyMs[0] = 2_000;
        PointResources r = meter.end(start, 500, 2);
        assertEquals(0.05, r.cpuJoulesPerRequest(), 1e-12, "25 J over 500 completed requests");
        assertEquals(25.0 / 1000 * 1000, r.energy().joulesPer1000Samples(), 1e-9, "1,000 samples at 2 per request");
        assertNull(r.gpu());
        assertNull(r.gpuJoulesPerRequest());
        assertTrue(r.cpu().utilisationPercent() > 0, "2 s of CPU against 4 cores over the point's wall time: " + r.cpu());
        assertEquals(2000.0 / (r.wallMs() * 4) * 100, r.cpu().utilisationPercent(), 1e-6);
    }

    @Test
    void aMachineWithoutRaplSaysWhyAndHasNoJoules(@TempDir Path empty) {
        PointMeter meter = new PointMeter(List.of(new CpuTime(CpuProbe.NONE, 2), new EnergyUse.Rapl(empty.resolve("none"))), null, 2);
        PointResources r = meter.end(meter.start(), 10, 1);
        assertNull(r.cpuJoulesPerRequest());
        assertTrue(r.energy().unavailable().startsWith("no RAPL package domain"), r.energy().unavailable());
        assertNull(r.cpu(), "a probe that knows nothing gives no CPU figures");
    }
}
