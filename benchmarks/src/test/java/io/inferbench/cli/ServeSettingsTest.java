package io.inferbench.cli;

import io.inferbench.BenchmarkException;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TestOptions;
import io.inferbench.serve.Arrivals;
import io.inferbench.serve.ServeOptions;
import io.inferbench.serve.ServingPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The serving properties: what they build, and every kind of bad value refused before anything is measured. */
class ServeSettingsTest {
    @TempDir
    Path dir;

    private ServeOptions serve(String... keyValues) {
        Properties p = TestOptions.minimal(dir);
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        SweepOptions sweep = Settings.sweep(p);
        return Settings.serve(p, sweep);
    }

    private String refused(String... keyValues) {
        return assertThrows(BenchmarkException.class, () -> serve(keyValues)).getMessage();
    }

    @Test
    void thePropertiesBuildThePolicies() {
        ServeOptions o = serve("bench.concurrency", "1,2", "bench.rate", "50,100", "bench.maxWaitMs", "0,5", "bench.maxBatch", "4",
                "bench.sla.p99Ms", "30", "bench.arrivals", "uniform");
        assertEquals(List.of(1, 2), o.concurrencies());
        assertEquals(List.of(50.0, 100.0), o.ratesRps());
        assertEquals(Arrivals.UNIFORM, o.arrivals());
        assertEquals(8, o.seqLen(), "the sweep's smallest sequence length");
        assertEquals(1, o.samplesPerRequest(), "one sample per request when several batch sizes are swept");
        assertEquals(List.of(ServingPolicy.unbatched(1), ServingPolicy.unbatched(2), new ServingPolicy(1, 4, 0),
                new ServingPolicy(1, 4, 5)), o.policies());
        assertFalse(serve().any(), "nothing is served unless asked for");
        assertEquals(4, serve("bench.batch", "4", "bench.rate", "100").samplesPerRequest(), "one batch size: that many samples");
    }

    @Test
    void badValuesAreRefusedWithTheRuleAndTheFix() {
        assertTrue(refused("bench.rate", "0").contains("must be more than 0 requests per second"));
        assertTrue(refused("bench.rate", "-5").contains("must be more than 0 requests per second"));
        assertTrue(refused("bench.concurrency", "0").contains("bench.concurrency must be 1 or more"));
        assertTrue(refused("bench.sla.p99Ms", "0", "bench.rate", "100").contains("-Dbench.sla.p99Ms must be more than 0 ms"));
        assertTrue(refused("bench.maxWaitMs", "-1", "bench.rate", "100").contains("-Dbench.maxWaitMs must be 0 or more"));
        assertTrue(refused("bench.rate", "500000").contains("faster than the generator can schedule"));
        assertTrue(refused("bench.rate", "5").contains("fewer than 100"));
        assertTrue(refused("bench.maxWaitMs", "5").contains("needs arrival rates"));
        assertTrue(refused("bench.arrivals", "bursty", "bench.rate", "100").contains("expected poisson or uniform"));
        assertTrue(refused("bench.rate", "fast").contains("must be numbers"));
        String noRate = refused("bench.soakSeconds", "60");
        assertTrue(noRate.contains("-Dbench.soakSeconds needs a rate") && noRate.contains("-Dbench.sla.p99Ms"), noRate);
        assertTrue(refused("bench.ablation", "true").contains("-Dbench.ablation needs a rate"));
        String fewWindows = refused("bench.soakSeconds", "40", "bench.rate", "100");
        assertTrue(fewWindows.contains("gives 4 window(s), fewer than the 5 a trend needs") && fewWindows.contains("at least 50 s"),
                fewWindows);
        assertTrue(refused("bench.soakSeconds", "60", "bench.soakWindowSeconds", "0", "bench.rate", "100")
                .contains("-Dbench.soakWindowSeconds must be more than 0"));
    }

    /** A bad serving value stops the sweep before its first cell: no run folder is made. */
    @Test
    void aBadServingValueStopsTheSweepBeforeItMeasures() throws Exception {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.rate", "0");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        assertEquals(ExitCode.BAD_INPUT, InferbenchMain.run(new String[] {"sweep"}, p, out, out));
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("bench.rate must be more than 0"), printed.toString());
        assertFalse(Files.exists(dir.resolve("results")), "nothing was created, nothing measured");
    }
}
