package io.inferbench.pipeline;

import io.inferbench.generate.GenerationSection;
import io.inferbench.report.GenerationReport;
import io.inferbench.results.RunResult;
import io.inferbench.runner.Cell;
import io.inferbench.runner.ForkRunner;
import io.inferbench.runner.TimeAccount;

import java.time.Instant;
import java.util.List;

/**
 * Generation ({@code -Dbench.generate=N}): every cell of the plan in fresh fork JVMs by the same runner as the sweep
 * ({@link ForkRunner}, with {@code io.inferbench.generate.GenerationKind}), run.json's {@code generation} rewritten with
 * the cells so far after each fork JVM ({@link GenerationSection#sofar}), then completed with the roofline and the token
 * agreement, and printed. The sweep's stages after it do not apply: they need the sweep.
 */
final class GenerationStage extends NamedStage {
    static final String NAME = "generation";

    private final ForkRunner runner;
    private final List<Cell> plan;
    private final PreflightStage preflight;
    private final GenerationSection section;

    GenerationStage(ForkRunner runner, List<Cell> plan, PreflightStage preflight, GenerationSection section) {
        super(NAME, TimeAccount.Phase.SWEEP, List.of(PreflightStage.NAME));
        this.runner = runner;
        this.plan = List.copyOf(plan);
        this.preflight = preflight;
        this.section = section;
    }

    @Override
    public RunResult run(RunResult run, RunContext context) {
        RunResult generated = runner.run(run, plan, context.store(), preflight.result(), (started, cells, finished) -> finished
                ? started.withGeneration(section.complete(cells, started)).withCells(List.of(), Instant.now().toString())
                : started.withGeneration(section.sofar(cells)));
        GenerationReport.print(generated.generation(), context.console());
        return generated;
    }
}
