package io.inferbench.pipeline;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.compare.AbSubjects;
import io.inferbench.compare.GateDecision;
import io.inferbench.environment.EnvironmentProbe;
import io.inferbench.results.AbSection;
import io.inferbench.results.EnvironmentInfo;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.runner.Cell;
import io.inferbench.runner.CellKind;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.ForkRunner;
import io.inferbench.runner.Preflight;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TimeAccount;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * An A/B run's preflight: every check of a run's preflight ({@link Preflight}) for B, then for A, and what must hold
 * between them: the same cells, and models that take the same inputs ({@link AbSubjects#checkComparable}). It records
 * both subjects' conditions and what differs between them; a failure is bad input, before anything is measured.
 */
final class AbPreflightStage extends NamedStage {
    static final String NAME = PreflightStage.NAME;

    private final SweepOptions a;
    private final SweepOptions b;
    private final CellKind kind;
    private final CellKind together;
    private final List<Cell> planA;
    private final List<Cell> planB;
    private final AbRun.Options options;
    private final ForkExecutor forks;
    private Preflight.Result resultA;
    private Preflight.Result resultB;
    private RunResult startedA;

    /**
     * @param together the kind of a {@code passes} pair of two builds of a target, whose check opens both in one fork
     *                 JVM before measuring; null otherwise (two models are checked apart, as each fork opens them)
     */
    AbPreflightStage(SweepOptions a, SweepOptions b, CellKind kind, CellKind together, List<Cell> planA, List<Cell> planB,
                     AbRun.Options options, ForkExecutor forks) {
        super(NAME, TimeAccount.Phase.PREFLIGHT, List.of());
        this.a = a;
        this.b = b;
        this.kind = kind;
        this.together = together;
        this.planA = List.copyOf(planA);
        this.planB = List.copyOf(planB);
        this.options = options;
        this.forks = forks;
    }

    Preflight.Result resultA() {
        return checked(resultA);
    }

    Preflight.Result resultB() {
        return checked(resultB);
    }

    /** A's run as it starts, for its own folder: A's conditions, the same environment and run id as B's. */
    RunResult startedA() {
        return checked(startedA);
    }

    private static <T> T checked(T value) {
        if (value == null) {
            throw new IllegalStateException("the preflight has not run");
        }
        return value;
    }

    @Override
    public RunResult run(RunResult none, RunContext context) {
        context.console().println(ForkRunner.planLine(b, kind, planB));
        context.console().println("[inferbench] A/B: A is " + AbSubjects.describe(a.plan().models(), a.engines().userCode().classpath())
                + ", B is " + AbSubjects.describe(b.plan().models(), b.engines().userCode().classpath())
                + (options.ab().mode() == io.inferbench.compare.AbOptions.Mode.PASSES
                ? "; each pair is one fork JVM holding A's session and B's, their passes alternating in an order drawn per "
                + "block of two, each order once a block"
                + (together instanceof io.inferbench.sweep.AlternatingKind alt && alt.baselineCode() != null
                ? " (each build in a class-loader layer of its own over one layer shared by both, the "
                + alt.baselineCode().shared().size() + " jar(s) both have)" : "")
                : options.duet() == null ? "; each pair runs A's and B's fork JVMs back to back, in an order drawn per pair"
                : "; each pair runs A's and B's fork JVMs at the same time (a duet), on cores " + options.duet().a() + " and "
                + options.duet().b() + ", which half drawn per pair") + ", until every cell's p50 is "
                + "decided (at most " + options.ab().maxPairs() + " pairs, " + Text.plain(options.ab().maxMinutes()) + " min)");
        io.inferbench.probe.Probe.all(); // two probes of one name are refused here, before any fork
        if (planA.size() != planB.size()) {
            throw new BenchmarkException("A's plan has " + planA.size() + " cells and B's " + planB.size()
                    + ": an A/B run pairs each of B's cells with A's at the same shape");
        }
        for (int i = 0; i < planA.size(); i++) {
            Cell ca = planA.get(i);
            Cell cb = planB.get(i);
            if (ca.seqLen() != cb.seqLen() || ca.batch() != cb.batch() || !ca.backend().equals(cb.backend())
                    || !ca.device().equals(cb.device())) {
                throw new BenchmarkException("A's cell " + ca.id() + " and B's " + cb.id() + " are not the same shape on the "
                        + "same engine: an A/B run pairs cells that differ by their subject only");
            }
        }
        resultB = Preflight.check(b, together == null ? kind : together, context.console(), forks);
        try {
            resultA = Preflight.check(a, kind, context.console(), forks);
        } catch (BenchmarkException e) {
            // A's class path is -Dbench.ab.baseline: a refusal that names -Dbench.classpath would send the user to B's
            throw new BenchmarkException("A (-Dbench.ab.baseline=" + options.ab().baseline() + "): " + e.getMessage()
                    .replace("-Dbench.classpath", "-D" + io.inferbench.compare.AbSetting.AB_BASELINE.property()), e);
        }
        RunConfig configB = b.toConfig(kind, null, options.mavenCommand(), options.jvmCommand())
                .withModels(List.copyOf(resultB.modelInfos().values())).withPlannedCells(planB.stream().map(Cell::id).toList());
        RunConfig configA = a.toConfig(kind, null, options.mavenCommand(), options.jvmCommand())
                .withModels(List.copyOf(resultA.modelInfos().values())).withPlannedCells(planA.stream().map(Cell::id).toList());
        AbSection.Subject subjectA = new AbSection.Subject("A", configA.plan().models(), configA.engines().targets(),
                AbRun.BASELINE_FOLDER + "/" + RunStore.RUN_FILE);
        AbSection.Subject subjectB = new AbSection.Subject("B", configB.plan().models(), configB.engines().targets(),
                RunStore.RUN_FILE);
        AbSubjects.checkComparable(subjectA, subjectB);
        List<String> differences = AbSubjects.differences(subjectA, subjectB);
        context.console().println(differences.isEmpty()
                ? "[inferbench] A/B: an A/A run, A and B the same subject: what it finds is the gate's false alarms"
                : "[inferbench] A/B: what differs: " + String.join("; ", differences));
        List<AbSection.CellPairs> cells = new ArrayList<>();
        for (Cell cell : planB) {
            cells.add(new AbSection.CellPairs(cell.id(), cell.backend(), cell.device(), cell.model(), cell.seqLen(), cell.batch(),
                    List.of(), null, null, null));
        }
        AbSection section = new AbSection(options.ab().mode().label(), differences.isEmpty(), List.of(subjectA, subjectB), differences,
                options.ab().rules(), cells, List.of(), null, false, GateDecision.UNDECIDED.label());
        ZonedDateTime started = ZonedDateTime.now();
        String runId = RunStore.newRunId(started);
        EnvironmentInfo environment = EnvironmentProbe.collect(resultB.engines());
        startedA = new RunResult(RunResult.SCHEMA_VERSION, runId, started.toInstant().toString(), null, environment, configA,
                List.of());
        return new RunResult(RunResult.SCHEMA_VERSION, runId, started.toInstant().toString(), null, environment, configB,
                List.of()).withAb(section);
    }
}
