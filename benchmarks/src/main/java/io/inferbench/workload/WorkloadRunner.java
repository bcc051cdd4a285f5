package io.inferbench.workload;

import io.inferbench.Text;
import io.inferbench.backend.Backends;
import io.inferbench.backend.Device;
import io.inferbench.backend.InferenceSession;
import io.inferbench.backend.SessionSpec;
import io.inferbench.backend.TextTokenizer;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.results.RunResult;
import io.inferbench.results.WorkloadResult;
import io.inferbench.sweep.SweepOptions;

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

    public static WorkloadResult run(WorkloadOptions options, Workload workload, SweepOptions sweep, RunResult run,
                                     PrintStream console) {
        WorkloadResult analysis = WorkloadAnalysis.analyze(workload, sweep.seqLens(), sweep.bucketsFile(), options.maxLength(), run,
                sweep.backends(), sweep.devices(), sweep.models(), sweep.seed());
        console.println();
        console.println(WorkloadAnalysis.summary(analysis));
        List<WorkloadResult.EngineWorkload> engines = new ArrayList<>();
        try (TextTokenizer tokenizer = workload.hasText()
                ? TextWorkloads.openTokenizer(options.tokenizer(), sweep.cacheDir(), sweep.djlCacheDir()) : null) {
            for (WorkloadResult.EngineWorkload engine : analysis.engines()) {
                ModelSource source = ModelSource.parse(engine.model());
                try (InferenceSession session = Backends.create(engine.backend(), sweep.djlCacheDir()).open(new SessionSpec(source,
                        new ModelResolver(sweep.cacheDir(), sweep.seed()).locate(source), sweep.seed(),
                        Device.parse(engine.device()), sweep.intraOpThreads(), sweep.interOpThreads(), sweep.allowCpuFallback()))) {
                    WorkloadResult.MixedStream stream = MixedStream.run(session, workload, tokenizer, analysis.buckets(),
                            options.maxLength(), options.mixedRequests(), WorkloadOptions.MIXED_WARMUP, sweep.seed());
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
        return new WorkloadResult(analysis.source(), analysis.sourceSha256(), analysis.tokenizer(), analysis.tokenizerSha256(),
                analysis.requests(), analysis.skippedLines(), analysis.tokenizeNote(), analysis.maxLength(),
                analysis.truncatedToMax(), analysis.beyondLargestBucket(), analysis.buckets(), analysis.bucketsFile(),
                analysis.lengthHistogram(), analysis.lengthPercentilesTokens(), engines);
    }
}
