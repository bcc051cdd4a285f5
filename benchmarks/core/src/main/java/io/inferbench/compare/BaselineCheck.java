package io.inferbench.compare;

import io.inferbench.BenchmarkException;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The baseline a run is to be compared with ({@code -Dbench.baseline}), read when the run starts and checked against it
 * before anything is measured: every same-ruler rule of {@link SameRuler} that needs none of the run's numbers (the
 * models' SHA-256, the GPU and CPU identity, one fork per cell) and the plan (the baseline must hold some of the run's
 * cells). A run that could not be compared is refused in seconds, not after the sweep. The rules that need the run's
 * numbers (calibrated peaks within {@value SameRuler#MAX_PEAK_DIFFERENCE}) are checked by the comparison at the end.
 */
public final class BaselineCheck {
    private final Path file;
    private final RunResult baseline;
    private final CompareOptions options;

    private BaselineCheck(Path file, RunResult baseline, CompareOptions options) {
        this.file = file;
        this.baseline = baseline;
        this.options = options;
    }

    /**
     * Reads the baseline now, as a real path: it must be a run file this version reads, and a link such as
     * {@code results/latest} must mean the run it points to before this run moves it.
     */
    public static BaselineCheck read(String value, CompareOptions options) {
        Path given = Path.of(value).toAbsolutePath().normalize();
        RunResult run = RunStore.readRun(given);
        try {
            return new BaselineCheck(given.toRealPath(), run, options);
        } catch (IOException e) {
            throw new BenchmarkException("Could not resolve the baseline " + given + ": " + e.getMessage(), e);
        }
    }

    public Path file() {
        return file;
    }

    public CompareOptions options() {
        return options;
    }

    /** The baseline as it was read when the run started. */
    public RunResult run() {
        return baseline;
    }

    /**
     * Checks {@code candidate}, as it stands before its first cell (its machine, engines and configuration), against the
     * baseline.
     *
     * @param plannedCells the ids of the cells the run will measure
     * @return what to tell the user
     * @throws BenchmarkException when the runs could not be compared (unless {@code compare.force}), or the baseline
     *                            holds none of the planned cells
     */
    public List<String> beforeMeasuring(RunResult candidate, List<String> plannedCells) {
        Set<String> measured = baseline.cells().stream().filter(CellResult::measured).map(CellResult::id)
                .collect(Collectors.toSet());
        long shared = plannedCells.stream().filter(measured::contains).count();
        if (shared == 0) {
            throw new BenchmarkException("The baseline " + file + " measured none of this run's " + plannedCells.size()
                    + " cells (" + String.join(", ", plannedCells.subList(0, Math.min(3, plannedCells.size())))
                    + (plannedCells.size() > 3 ? ", ..." : "") + "), so there would be nothing to compare. Give a baseline "
                    + "of the same backends, models, sequence lengths and batch sizes, or drop -Dbench.baseline");
        }
        SameRuler.Check ruler = SameRuler.check(baseline, candidate, options.codeChange());
        String cells = shared + " of the " + plannedCells.size() + " planned cells are in it";
        if (ruler.comparable()) {
            return List.of("[inferbench] baseline " + file + " (run " + baseline.runId() + "): measured the same way as far as "
                    + "can be told before measuring; " + cells + " (the calibrated peaks are checked after the run)");
        }
        if (!options.force()) {
            throw new BenchmarkException("The baseline " + file + " was not measured with the same ruler as this run, so "
                    + "their numbers could not be compared: " + String.join("; ", ruler.incomparable()) + ". Nothing was "
                    + "measured. Compare runs from the same hardware and model, or pass -Dcompare.force=true to compare "
                    + "anyway (the report then carries a warning)");
        }
        return List.of("[inferbench] WARNING: the baseline " + file + " was not measured with the same ruler: "
                + String.join("; ", ruler.incomparable()) + "; compared anyway (-Dcompare.force=true); " + cells);
    }
}
