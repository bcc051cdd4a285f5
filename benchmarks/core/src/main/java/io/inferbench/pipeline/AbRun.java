package io.inferbench.pipeline;

import io.inferbench.compare.AbOptions;
import io.inferbench.engine.UserCode;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.runner.Cell;
import io.inferbench.runner.DuetCpus;
import io.inferbench.runner.CellKind;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.ForkRunner;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TimeAccount;
import io.inferbench.sweep.AlternatingKind;
import io.inferbench.sweep.CellTexts;
import io.inferbench.sweep.ForwardKind;

import java.io.PrintStream;
import java.util.List;

/**
 * An A/B run ({@code -Dbench.ab.baseline}): a baseline A and the run's own subject B measured in the same run, pair by
 * pair, as a pipeline of its own: the preflight of both ({@link AbPreflightStage}), the pairs ({@link AbStage}), then
 * B's analysis and resources. B's cells are the run's {@code cells}; A's whole run is {@value #BASELINE_FOLDER}/run.json
 * in the run's folder, and its cells are in run.json's {@code ab} too.
 */
public final class AbRun {
    /** The folder of the run's where A's own run is written. */
    public static final String BASELINE_FOLDER = "baseline";

    private AbRun() {
    }

    /**
     * @param b            the run's own subject's options: the run's settings
     * @param a            A's: the same settings, with A's model or class path
     * @param mavenCommand how Maven was started, as recorded
     * @param jvmCommand   how this JVM was started
     * @param duet         the halves of the cores A's and B's forks are pinned to in a duet ({@link AbOptions.Mode#DUET});
     *                     null in the forks mode
     */
    public record Options(SweepOptions b, SweepOptions a, AbOptions ab, String mavenCommand, String jvmCommand,
                          DuetCpus duet) {
        public Options {
            if ((ab.mode() == AbOptions.Mode.DUET) != (duet != null)) {
                throw new IllegalArgumentException("a duet needs its halves of the cores, and only a duet has them");
            }
        }
    }

    /**
     * Runs both subjects' preflights, then the pairs until every cell is decided or the cap, then B's analysis.
     *
     * @throws Exception what the preflight refused: nothing was measured
     */
    public static Pipeline.Outcome run(Options options, ForkExecutor executor, PrintStream console, boolean terminal)
            throws Exception {
        TimeAccount time = new TimeAccount();
        SweepOptions b0 = options.b();
        ForwardKind kind = new ForwardKind(CellTexts.of(null, b0.plan().seqLens(),
                b0.plan().batches().stream().mapToInt(Integer::intValue).max().orElse(1), b0.rules().seed()));
        SweepOptions b = b0.forKind(kind);
        SweepOptions a = options.a().forKind(kind);
        List<Cell> planB = Cell.plan(b, kind);
        List<Cell> planA = Cell.plan(a, kind);
        AlternatingKind alternating = null;
        if (options.ab().mode() == AbOptions.Mode.PASSES) {
            // One runner: each fork JVM holds A's session beside B's, and its cells are B's.
            String modelA = a.plan().models().get(0);
            java.nio.file.Path fileA = new ModelResolver(a.engines().cacheDir(), a.rules().seed()).locate(ModelSource.parse(modelA));
            if (b.engines().userCode().classpath().isEmpty()) {
                alternating = new AlternatingKind(kind, modelA, fileA == null ? null : fileA.toString());
            } else {
                // Two builds of a target: each in its own layer, over one layer of the jars both have byte for byte.
                UserCode.Paired paired = UserCode.pair(a.engines().userCode(), b.engines().userCode());
                b = b.withUserCode(paired.b());
                alternating = new AlternatingKind(kind, modelA, fileA == null ? null : fileA.toString(), paired.a());
            }
        }
        if (alternating != null) {
            b = b.forKind(alternating); // a fork is one pair: its rules ask for enough units of each side
        }
        AbPreflightStage preflight = new AbPreflightStage(a, b, kind, alternating, planA, planB, options, executor);
        DuetCpus duet = options.duet();
        ForkExecutor executorA = duet == null ? executor : executor.pinned(duet::a);
        ForkExecutor executorB = duet == null ? executor : executor.pinned(duet::b);
        AbStage pairs;
        if (alternating != null) {
            pairs = new AbStage(null, new ForkRunner(b, alternating, executor, console, terminal, time), planA, planB,
                    preflight, options.ab(), b.rules().seed(), null);
        } else {
            pairs = new AbStage(new ForkRunner(a, kind, executorA, console, terminal, time),
                    new ForkRunner(b, kind, executorB, console, terminal, time), planA, planB, preflight, options.ab(),
                    b.rules().seed(), duet);
        }
        return new Pipeline(b.output().resultsDir(), console, time).run(List.of(preflight, pairs,
                new AnalysisStage(b.rules().regimeThresholds()), new ResourcesStage(null)));
    }
}
