package io.inferbench.pipeline;

import io.inferbench.environment.EnvironmentProbe;
import io.inferbench.generate.GenerationForks;
import io.inferbench.generate.GenerationOptions;
import io.inferbench.generate.GenerationPreflight;
import io.inferbench.generate.GenerationRunner;
import io.inferbench.report.GenerationReport;
import io.inferbench.results.GenerationResult;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.sweep.SweepOptions;
import io.inferbench.sweep.TimeAccount;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;

/**
 * A generation run ({@code -Dbench.generate=N}) as a pipeline of two stages: the preflight (every decoder opens and
 * generates at the largest shape on every engine and device), then generation itself ({@link GenerationRunner}), each round
 * of each engine, device and decoder in a fresh fork JVM.
 */
public final class GenerationRun {
    private GenerationRun() {
    }

    public static Pipeline.Outcome run(SweepOptions sweep, GenerationOptions options, String mavenCommand, String jvmCommand,
                                       PrintStream console) throws Exception {
        TimeAccount time = new TimeAccount();
        Preflight preflight = new Preflight(sweep, options, sweep.toConfig(null, mavenCommand, jvmCommand));
        return new Pipeline(sweep.output().resultsDir(), console, time).run(List.of(preflight,
                new Generate(sweep, options, preflight)));
    }

    private static final class Preflight extends NamedStage {
        private final SweepOptions sweep;
        private final GenerationOptions options;
        private final RunConfig config;
        private GenerationPreflight.Result result;

        Preflight(SweepOptions sweep, GenerationOptions options, RunConfig config) {
            super(PreflightStage.NAME, TimeAccount.Phase.PREFLIGHT, List.of());
            this.sweep = sweep;
            this.options = options;
            this.config = config;
        }

        @Override
        public RunResult run(RunResult none, RunContext context) {
            context.console().println(GenerationPreflight.planLine(sweep, options));
            result = GenerationPreflight.check(sweep, options, context.console());
            ZonedDateTime started = ZonedDateTime.now();
            List<RunConfig.ModelInfo> models = result.models().values().stream()
                    .map(m -> new RunConfig.ModelInfo(m.name(), m.sha256(), m.sizeBytes(), m.description())).toList();
            return new RunResult(RunResult.SCHEMA_VERSION, RunStore.newRunId(started), started.toInstant().toString(), null,
                    EnvironmentProbe.collect(result.engines()), config.withModels(models), List.of());
        }
    }

    private static final class Generate extends NamedStage {
        private final SweepOptions sweep;
        private final GenerationOptions options;
        private final Preflight preflight;

        Generate(SweepOptions sweep, GenerationOptions options, Preflight preflight) {
            super("generation", TimeAccount.Phase.SWEEP, List.of(PreflightStage.NAME));
            this.sweep = sweep;
            this.options = options;
            this.preflight = preflight;
        }

        @Override
        public RunResult run(RunResult run, RunContext context) {
            String link = context.store().linkAsLatest();
            context.console().println("[inferbench] writing " + context.store().runFile() + (link == null ? "" : " (" + link + ")"));
            GenerationForks forks = new GenerationForks(sweep.forkJvms().jvmArgs(), sweep.forkJvms().measuringEnvironment(),
                    context.console());
            GenerationResult generation = new GenerationRunner(options, sweep, forks, context.console())
                    .run(preflight.result.sources(), preflight.result.files(), run);
            GenerationReport.print(generation, context.console());
            return run.withGeneration(generation).withCells(List.of(), Instant.now().toString());
        }
    }
}
