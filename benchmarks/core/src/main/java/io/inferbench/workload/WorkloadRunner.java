package io.inferbench.workload;

import io.inferbench.Text;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.SessionDefaults;
import io.inferbench.engine.TextTokenizer;
import io.inferbench.model.ModelSource;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.WorkloadResult;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * After the sweep, in its JVM: the workload's analysis from the sweep's cells ({@link WorkloadAnalysis}), then a measured
 * mixed stream on every engine, device and model ({@link MixedStream}).
 */
public final class WorkloadRunner {
    private WorkloadRunner() {
    }

    /**
     * @param sessions how the run's cells opened their sessions: the mixed stream's are opened the same way
     * @param run      the finished sweep: its plan and cells
     */
    public static WorkloadResult run(WorkloadOptions options, Workload workload, SessionDefaults sessions, RunResult run,
                                     PrintStream console) {
        RunConfig.Plan plan = run.config().plan();
        WorkloadResult analysis = WorkloadAnalysis.analyze(workload, plan.seqLens(), plan.bucketsFile(), options.maxLength(), run,
                plan.backends(), plan.devices(), plan.models().stream().map(RunConfig.ModelInfo::name).toList(), sessions.seed());
        console.println();
        console.println(WorkloadAnalysis.summary(analysis));
        List<WorkloadResult.EngineWorkload> engines = new ArrayList<>();
        try (TextTokenizer tokenizer = workload.hasText()
                ? TextWorkloads.openTokenizer(options.tokenizer(), sessions.cacheDir(), sessions.nativeCacheDir()) : null) {
            for (WorkloadResult.EngineWorkload engine : analysis.engines()) {
                ModelSource source = ModelSource.parse(engine.model());
                try (InferenceSession session = sessions.backend(engine.backend()).open(sessions.spec(source, engine.device()))) {
                    WorkloadResult.MixedStream stream = MixedStream.run(session, workload, tokenizer, analysis.buckets(),
                            options.maxLength(), options.mixedRequests(), WorkloadOptions.MIXED_WARMUP, sessions.seed());
                    console.println(Text.f("[inferbench]   mixed stream on %s/%s/%s: %d requests at their buckets' shapes, pass p50 "
                                    + "%.3f ms, p99 %.3f ms; end to end%s p50 %.3f ms, p99 %.3f ms", engine.backend(),
                            engine.device(), Text.shortModelName(engine.model()), stream.requests(), stream.passMs().p50Ms(),
                            stream.passMs().p99Ms(), workload.hasText() ? " (tokenize included)" : "", stream.endToEndMs().p50Ms(),
                            stream.endToEndMs().p99Ms()));
                    engines.add(new WorkloadResult.EngineWorkload(engine.backend(), engine.device(), engine.model(),
                            engine.latencyModel(), engine.buckets(), engine.schemes(), engine.lengthAwareBatching(),
                            engine.advisor(), stream));
                }
            }
        }
        return analysis.withEngines(engines);
    }
}
