package io.inferbench.runner;

import io.inferbench.BenchmarkException;
import io.inferbench.engine.SessionDefaults;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.results.Json;
import io.inferbench.results.RunStore;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What one fork JVM runs: its round, its engine, device and model, the cells in the order to run them (each with the
 * folder its measurement goes to), how the session is opened, and the warm-up and stop rules. The sweep writes it as
 * JSON beside the forks' output and gives the file to the JVM it launches; the fork reads nothing else.
 *
 * @param jvm    the sweep's number for this fork JVM, 1-based, in launch order: what the files it writes are named by
 * @param round  the fork round, 1-based: the sweep makes one round over every cell per fork
 * @param kind   what each cell measures: its session and its unit ({@link CellKind})
 * @param cells  in the order the fork runs them (seeded, different in every round; see {@link Cell#order})
 * @param nvidiaSmi the binary that samples the GPU on CUDA ({@link io.inferbench.probe.GpuSampler}); null means the
 *               one on the PATH
 * @param guard  the fork's watchdog ({@link CallWatchdog}): how long a call may run, and the parent it watches; null for
 *               none (a fork run in the test's own JVM)
 */
public record ForkPlan(int jvm, int round, CellKind kind, String backend, String device, String model,
                       List<PlannedCell> cells, SessionDefaults session, MeasurePolicy policy, String nvidiaSmi,
                       JitCompilation jitCompilation, Guard guard) {

    /**
     * What the fork's {@link CallWatchdog} holds it to.
     *
     * @param callTimeoutSeconds the longest one call (opening the session, preparing a cell, one timed unit) may run
     *                           before the cell fails as timed out and the JVM is stopped ({@code -Dbench.callTimeoutSeconds})
     * @param parentPid          the sweep's JVM: when it is gone, the fork stops
     */
    public record Guard(double callTimeoutSeconds, long parentPid) {
    }

    /** A plan without a watchdog. */
    public ForkPlan(int jvm, int round, CellKind kind, String backend, String device, String model,
                    List<PlannedCell> cells, SessionDefaults session, MeasurePolicy policy, String nvidiaSmi,
                    JitCompilation jitCompilation) {
        this(jvm, round, kind, backend, device, model, cells, session, policy, nvidiaSmi, jitCompilation, null);
    }

    /** One cell of the plan and where its fork writes what it measured (or why it failed). */
    public record PlannedCell(int seqLen, int batch, Path outputDir) {
    }

    public ForkPlan {
        cells = List.copyOf(cells);
        if (cells.isEmpty()) {
            throw new IllegalArgumentException("a fork plan needs at least one cell");
        }
    }

    /** The full cell of a planned one. */
    public Cell cell(PlannedCell planned) {
        return new Cell(backend, device, model, planned.seqLen(), planned.batch());
    }

    public List<Cell> cellsInOrder() {
        return cells.stream().map(this::cell).toList();
    }

    /**
     * The name of what this fork writes in a cell's folder, {@code fork-r<round>-jvm<NNN>.<extension>}: its measurement
     * ({@code json}) or why the cell failed ({@code error}). Named by the sweep's JVM number rather than the process id,
     * so that a fork measured again in a fresh JVM never meets its first measurement's name, whatever ids the machine
     * hands out.
     */
    public String fileName(String extension) {
        return String.format(java.util.Locale.ROOT, "fork-r%d-jvm%03d.%s", round, jvm, extension);
    }

    public void write(Path file) {
        RunStore.writeAtomically(file, out -> Json.mapper().writeValue(out, this));
    }

    public static ForkPlan read(Path file) {
        try {
            return Json.mapper().readValue(file.toFile(), ForkPlan.class);
        } catch (IOException e) {
            throw new BenchmarkException("Could not read the fork plan " + file + ": " + e.getMessage()
                    + ". Fork JVMs are started by the sweep (mvn verify), not by hand", e);
        }
    }
}
