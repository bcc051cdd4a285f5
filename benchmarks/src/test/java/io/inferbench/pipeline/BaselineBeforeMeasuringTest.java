package io.inferbench.pipeline;

import io.inferbench.BenchmarkException;
import io.inferbench.cli.Settings;
import io.inferbench.compare.BaselineCheck;
import io.inferbench.results.Json;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.results.SampleRuns;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TestOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A baseline that could not be compared with the run is refused by the preflight, before the first cell: the same-ruler
 * rules that need none of the run's numbers, and a plan the baseline shares no cell with.
 */
class BaselineBeforeMeasuringTest {
    @TempDir
    Path dir;

    private final PrintStream console = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    /** An executor that must never be reached: the run has to be refused before any measurement. */
    private static final ForkExecutor NEVER = (plan, planFile, consoleLog, events) -> {
        throw new AssertionError("measured " + plan.cellsInOrder() + " although the baseline cannot be compared");
    };

    /** A baseline of tiny at seq 64, batch 1 to 3, measured with another model file of the same name. */
    private Path baselineOfAnotherModel() throws Exception {
        RunResult sample = SampleRuns.sampleRun();
        RunConfig.ModelInfo other = new RunConfig.ModelInfo("tiny", "cd".repeat(32), 1, "another tiny");
        RunResult baseline = sample.withConfig(sample.config().withModels(List.of(other)));
        Path file = dir.resolve("baseline.json");
        RunStore.writeAtomically(file, out -> Json.mapper().writeValue(out, baseline));
        return file;
    }

    private RunOptions options(Properties p, BaselineCheck baseline) {
        SweepOptions sweep = Settings.sweep(p);
        return new RunOptions(sweep, null, null, Settings.serve(p, sweep), Settings.workload(p), null, Settings.agreement(p), null,
                false, baseline, null, "test");
    }

    @Test
    void aBaselineOfAnotherModelIsRefusedBeforeTheFirstCellAndLeavesNoRun() throws Exception {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.seq", "64");
        p.setProperty("bench.forks", "3");
        BaselineCheck baseline = BaselineCheck.read(baselineOfAnotherModel().toString(), Settings.compare(p));
        BenchmarkException refused = assertThrows(BenchmarkException.class,
                () -> BenchmarkRun.run(options(p, baseline), NEVER, console, false));
        assertTrue(refused.getMessage().contains("not measured with the same ruler") && refused.getMessage().contains("SHA-256")
                && refused.getMessage().contains("Nothing was measured"), refused.getMessage());
        assertFalse(Files.exists(dir.resolve("results").resolve("latest")), "no run folder, no link");
    }

    @Test
    void aBaselineThatSharesNoCellWithThePlanIsRefused() throws Exception {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.seq", "32");
        BaselineCheck baseline = BaselineCheck.read(baselineOfAnotherModel().toString(), Settings.compare(p));
        BenchmarkException refused = assertThrows(BenchmarkException.class,
                () -> BenchmarkRun.run(options(p, baseline), NEVER, console, false));
        assertTrue(refused.getMessage().contains("measured none of this run's 2 cells"), refused.getMessage());
    }
}
