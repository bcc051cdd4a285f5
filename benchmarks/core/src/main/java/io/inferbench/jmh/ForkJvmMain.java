package io.inferbench.jmh;

import io.inferbench.probe.Probe;
import io.inferbench.runner.ForkPlan;
import io.inferbench.runner.ForkRun;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The main class of a fork JVM: the sweep launches one per (engine, device, model) and fork round (or one per cell with
 * {@code -Dbench.isolation=cell}), with the fork's JVM options, and gives it a {@link ForkPlan}. It runs the plan as
 * one JMH run of {@link CellBenchmark} in this JVM, {@code forks(0)}, each cell a value of its {@code cell}
 * parameter, in the plan's order.
 *
 * <p><b>Why JMH does not fork here.</b> JMH forks one JVM per benchmark and parameter combination; here that would be
 * one per cell, each paying JVM start, engine load, session creation and the JIT's warm-up (seconds on a GPU, where it
 * also creates a CUDA context) for a few seconds of measurement. This JVM already is the fresh, separate JVM that JMH's
 * fork would be: the sweep starts it with the fork's options, and nothing else runs in it. JMH's warning that non-forked
 * runs "may silently omit JVM options" is about running inside a build tool's JVM, which this is not; the JMH compiler
 * hints it would add concern its blackholes, and the passes here are native calls that no JIT can remove.
 *
 * <p>Its standard output goes to the run's {@code console.log}, and carries the {@link io.inferbench.runner.ForkEvent}
 * lines the sweep reads for its progress. JMH's results go to {@code <plan>.jmh.json} beside the plan.
 * Exit code 0 when every cell was attempted (each one's measurement or error is in its folder), 2 when the session could
 * not be opened.
 */
public final class ForkJvmMain {
    private ForkJvmMain() {
    }

    public static void main(String[] args) throws IOException {
        long mainEpochMs = System.currentTimeMillis();
        if (args.length != 1) {
            System.err.println("[inferbench] ForkJvmMain needs one argument, the fork plan's JSON file; the sweep starts it");
            System.exit(ForkRun.NO_SESSION);
        }
        Path planFile = Path.of(args[0]);
        ForkPlan plan = ForkPlan.read(planFile);
        List<RunResult> results = new ArrayList<>();
        PrintStream out = System.out;
        int code = ForkRun.run(plan, fork -> results.addAll(runPlan(plan)), event -> {
            out.println(event.line());
            out.flush();
        }, mainEpochMs, Probe.all());
        try (PrintStream json = new PrintStream(Files.newOutputStream(jmhResultFile(planFile)), false, StandardCharsets.UTF_8)) {
            ResultFormatFactory.getInstance(ResultFormatType.JSON, json).writeOut(results);
        }
        ForkRun.endChildren();
        System.exit(code);
    }

    /** Where a fork writes JMH's own results: beside its plan, {@code <plan>.jmh.json}. */
    public static Path jmhResultFile(Path planFile) {
        String name = planFile.getFileName().toString().replaceFirst("\\.json$", "");
        return planFile.resolveSibling(name + ".jmh.json");
    }

    /**
     * Every cell of the plan as one JMH run in this JVM, the cells as values of one parameter in the plan's order. A
     * failing cell does not stop JMH: it reports it and runs the next one.
     */
    static Collection<RunResult> runPlan(ForkPlan plan) throws Exception {
        List<String> cells = new ArrayList<>();
        for (int i = 0; i < plan.cells().size(); i++) {
            cells.add(cellParameter(i, plan.cells().get(i)));
        }
        Options options = new OptionsBuilder()
                .include(Pattern.quote(CellBenchmark.class.getName()) + "\\.phase$")
                .param("backend", plan.backend())
                .param("device", plan.device())
                .param("model", plan.model())
                .param("cell", cells.toArray(String[]::new))
                .forks(0)
                .warmupIterations(1)
                .warmupBatchSize(1)
                .measurementIterations(1)
                .measurementBatchSize(1)
                .timeUnit(TimeUnit.MILLISECONDS)
                .shouldFailOnError(false)
                .build();
        try {
            return new Runner(options).run();
        } catch (RunnerException e) {
            throw rootCause(e);
        }
    }

    /**
     * A cell as the benchmark's parameter: its place in the order, zero-padded so that the values sort as they are given
     * even where a tool sorts them as text, then its shape.
     */
    public static String cellParameter(int index, ForkPlan.PlannedCell cell) {
        return String.format(java.util.Locale.ROOT, "%03d:seq%d/batch%d", index, cell.seqLen(), cell.batch());
    }

    /** The {seq, batch} of a {@link #cellParameter}. */
    static int[] shape(String parameter) {
        java.util.regex.Matcher m = Pattern.compile("\\d+:seq(\\d+)/batch(\\d+)").matcher(parameter);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a cell parameter: " + parameter);
        }
        return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
    }

    /** The benchmark's own exception inside JMH's wrappers (its cause, or the first exception JMH collected). */
    static Exception rootCause(Exception e) {
        Throwable t = e;
        while (true) {
            Throwable next = t.getCause() != null ? t.getCause() : t.getSuppressed().length > 0 ? t.getSuppressed()[0] : null;
            if (next == null || next == t) {
                break;
            }
            t = next;
        }
        return t instanceof Exception inner ? inner : e;
    }
}
