package io.inferbench.serve;

import io.inferbench.Text;
import io.inferbench.engine.InferenceSession;
import io.inferbench.measure.LatencySummary;
import io.inferbench.results.AblationResult;
import io.inferbench.results.LoadPointResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Ablation: the same open-loop load, on the same seeded arrivals, with one part of a request's path replaced at a time,
 * so each part's cost shows by difference (the practice is to swap the model for a mock that answers at once: if the
 * latency barely moves, the model is not the bottleneck).
 *
 * <ol>
 *   <li>{@code full}: the real path.</li>
 *   <li>{@code noop-engine}: {@link NoopExecutor}, outputs of the real size at once: the harness and the serving path
 *       alone.</li>
 *   <li>{@code fixed-tokens} (text workloads): every text tokenized before the load, the ids handed over as they are.</li>
 *   <li>{@code outputs-unread}: the fetch copies nothing out. The pass still returns with its outputs in host memory
 *       (that is how the device is synchronized), so what is left out is the conversion to floats and the split per
 *       request a service does.</li>
 *   <li>{@code full (repeat)}: the real path again. The full reference is the mean of the two full runs, so a machine
 *       that drifts steadily while the parts run cancels out, and their difference says how far it moved.</li>
 * </ol>
 * Each cost by difference has a 95% interval from the means' standard errors; one whose interval holds 0 is called not
 * resolved rather than read. Each part first runs an unrecorded warm-up of its own path ({@value #WARMUP_SECONDS} s), so its first calls do not
 * pay for the JIT inside the measurement.
 */
public final class AblationRun {
    static final double WARMUP_SECONDS = 0.5;
    /** Two readings of a part's cost agree within this many ms, or within {@link #AGREE_SHARE} of the larger. */
    static final double AGREE_MS = 0.05;
    static final double AGREE_SHARE = 0.25;
    /** The two-sided 95% normal quantile, for the interval of a cost by difference. */
    static final double Z95 = 1.959963984540054;

    private final InferenceSession session;
    private final int seqLen;
    private final int rowsPerRequest;
    private final long seed;
    private final RequestShape inputs;

    /** @param inputs what each request carries: a fixed shape, or the workload's requests */
    AblationRun(InferenceSession session, int seqLen, int rowsPerRequest, long seed, RequestShape inputs) {
        this.session = session;
        this.seqLen = seqLen;
        this.rowsPerRequest = rowsPerRequest;
        this.seed = seed;
        this.inputs = inputs;
    }

    /** What one part replaced and how its executors are made. */
    private record Variant(String name, String replaced, BatchExecutor.Factory executors) {
    }

    AblationResult run(SoakRun.Target target, ServingPolicy policy, double rateRps, String rateSource, double seconds,
                       long[] schedule, int[] mix) throws InterruptedException {
        int maxBatch = policy.maxBatch();
        List<String> skipped = new ArrayList<>();
        List<Variant> variants = new ArrayList<>();
        variants.add(new Variant(AblationResult.FULL, null, () -> new SessionExecutor(session, batches(maxBatch, null), true)));
        Map<Integer, Integer> floatsPerRow = outputFloatsPerRow(maxBatch);
        variants.add(new Variant(AblationResult.NOOP_ENGINE, "the engine: its input tensors, the pass and its outputs; "
                + "a no-op answers at once with outputs of the model's size",
                () -> new NoopExecutor(batches(maxBatch, null), floatsPerRow)));
        long[][] pretokenized = session.takesText() ? null : HostBatches.pretokenize(inputs);
        if (session.takesText()) {
            skipped.add(AblationResult.FIXED_TOKENS + ": the session reads the texts itself (a target tokenizes inside its "
                    + "call, where its own stages time it)");
        } else if (pretokenized != null) {
            variants.add(new Variant(AblationResult.FIXED_TOKENS, "tokenizing: each text's ids were made before the load",
                    () -> new SessionExecutor(session, batches(maxBatch, pretokenized), true)));
        } else {
            skipped.add(AblationResult.FIXED_TOKENS + ": the requests carry no text to tokenize (give -Dbench.text for a "
                    + "text workload)");
        }
        variants.add(new Variant(AblationResult.OUTPUTS_UNREAD, "reading the outputs: the pass's outputs reach host memory "
                + "but are not converted to floats nor split per request",
                () -> new SessionExecutor(session, batches(maxBatch, null), false)));
        variants.add(new Variant(AblationResult.FULL_REPEAT, null, variants.get(0).executors()));

        List<AblationResult.Part> parts = new ArrayList<>();
        for (Variant v : variants) {
            ServingWarmup.run(v.executors(), ServingWarmup.shapes(maxBatch, inputs), WARMUP_SECONDS);
            List<Request> requests = new OpenLoopRun(policy, v.executors()).run(schedule, mix,
                    (long) (Math.max(10, seconds) * 1e9));
            LoadPointResult point = LoadPointSummary.summarize(new LoadPointSummary.Point(target.backend(),
                    target.device(), target.model(), seqLen, "open-loop", policy, policy.workers(), rateRps, "ablation",
                    seconds), requests, null);
            parts.add(part(v, point));
        }
        return new AblationResult(target.backend(), target.device(), target.model(), policy.label(), rateRps, rateSource,
                seconds, parts, costs(parts), harness(parts), skipped);
    }

    private HostBatches batches(int maxBatch, long[][] pretokenized) {
        return new HostBatches(seqLen, rowsPerRequest, maxBatch, seed, inputs, pretokenized, session.takesText());
    }

    /** One real pass of one request at each sequence length a batch can have: the first output's floats per row. */
    private Map<Integer, Integer> outputFloatsPerRow(int maxBatch) {
        Map<Integer, Integer> perRow = new TreeMap<>();
        try (SessionExecutor probe = new SessionExecutor(session, batches(maxBatch, null), true)) {
            for (ServingWarmup.Shape shape : ServingWarmup.shapes(1, inputs)) {
                List<Request> one = List.of(new Request(0, System.nanoTime(), shape.workloadIndex()));
                probe.prepare(one);
                probe.forward();
                perRow.put(shape.bucket() == 0 ? seqLen : shape.bucket(), probe.lastOutputFloats() / rowsPerRequest);
            }
        }
        return perRow;
    }

    private static AblationResult.Part part(Variant v, LoadPointResult p) {
        LatencySummary l = p.latencyFromIntendedMs();
        Map<String, Double> stages = new LinkedHashMap<>();
        p.stagesMs().forEach((name, s) -> stages.put(name, s.meanMs()));
        return new AblationResult.Part(v.name(), v.replaced(), p.sent(), p.completed(), p.failed(), p.errorRate(),
                l == null ? null : l.meanMs(), l == null || l.count() < 2 ? null : l.stdevMs() / Math.sqrt(l.count()),
                l == null ? null : l.p50Ms(), l == null ? null : l.p90Ms(),
                l == null ? null : l.p99Ms(), l == null ? null : l.p999Ms(), l == null ? null : l.maxMs(), stages);
    }

    /**
     * The no-op engine's latency, split into the generator's lateness, the wait for the worker, tokenizing (which it
     * keeps) and the rest; null when it completed nothing.
     */
    static AblationResult.Harness harness(List<AblationResult.Part> parts) {
        AblationResult.Part noop = find(parts, AblationResult.NOOP_ENGINE);
        if (noop == null || noop.meanMs() == null) {
            return null;
        }
        double lag = stageMean(noop, "generatorLag");
        double queue = stageMean(noop, "workerWait");
        Double tokenize = noop.stageMeansMs().get("tokenize");
        return new AblationResult.Harness(noop.meanMs(), lag, queue, tokenize,
                noop.meanMs() - lag - queue - (tokenize == null ? 0 : tokenize), noop.p99Ms());
    }

    /** Each replacement's cost by difference, against the mean of the two full runs, beside the full runs' stages. */
    static List<AblationResult.Cost> costs(List<AblationResult.Part> parts) {
        AblationResult.Part full = find(parts, AblationResult.FULL);
        AblationResult.Part repeat = find(parts, AblationResult.FULL_REPEAT);
        List<AblationResult.Cost> costs = new ArrayList<>();
        if (full == null || repeat == null || full.meanMs() == null || repeat.meanMs() == null) {
            return costs;
        }
        double drift = repeat.meanMs() - full.meanMs();
        for (AblationResult.Part part : parts) {
            List<String> stages;
            String removed;
            switch (part.name()) {
                case AblationResult.NOOP_ENGINE -> {
                    stages = List.of("prepare", "forward", "fetch");
                    removed = "the engine";
                }
                case AblationResult.FIXED_TOKENS -> {
                    stages = List.of("tokenize");
                    removed = "tokenizing";
                }
                case AblationResult.OUTPUTS_UNREAD -> {
                    stages = List.of("fetch");
                    removed = "reading the outputs";
                }
                default -> {
                    continue;
                }
            }
            if (part.meanMs() == null) {
                costs.add(new AblationResult.Cost(removed, part.name(), AblationResult.Difference.NONE, stages, null,
                        drift, false, "the part completed no request: " + part.failed() + " failed"));
                continue;
            }
            double mean = both(full.meanMs(), repeat.meanMs()) - part.meanMs();
            double p50 = both(full.p50Ms(), repeat.p50Ms()) - part.p50Ms();
            double p99 = both(full.p99Ms(), repeat.p99Ms()) - part.p99Ms();
            // The stages the part removes, as the full runs took them, less what the replacement still spends in them.
            double stageMs = 0;
            for (String stage : stages) {
                stageMs += both(stageMean(full, stage), stageMean(repeat, stage)) - stageMean(part, stage);
            }
            // The reference is the two full runs' mean, so its variance is a quarter of theirs added.
            double halfWidth = Z95 * Math.sqrt((square(full.meanStdErrorMs()) + square(repeat.meanStdErrorMs())) / 4
                    + square(part.meanStdErrorMs()));
            double low = mean - halfWidth;
            double high = mean + halfWidth;
            boolean resolved = low > 0 || high < 0;
            boolean agree = (low <= stageMs && stageMs <= high)
                    || Math.abs(mean - stageMs) <= Math.max(AGREE_MS, AGREE_SHARE * Math.max(Math.abs(mean), Math.abs(stageMs)));
            costs.add(new AblationResult.Cost(removed, part.name(), new AblationResult.Difference(mean, low, high, resolved,
                    p50, p99), stages, stageMs, drift, agree, reading(removed, mean, low, high, stageMs, drift, agree)));
        }
        return costs;
    }

    static String reading(String removed, double mean, double low, double high, double stageMs, double drift,
                          boolean agree) {
        String both = Text.f("%s costs %.3f ms per request by difference [%.3f, %.3f] and %.3f ms by its stages", removed,
                mean, low, high, stageMs);
        if (low <= 0 && 0 <= high) {
            return both + ": the difference is not resolved at this length (its 95% interval includes 0)"
                    + (agree ? ", and the stages lie within it" : "") + Text.f("; the full path moved %+.3f ms between its "
                    + "two runs; a longer -Dbench.serveSeconds narrows it", drift);
        }
        if (agree) {
            return both + ": they agree";
        }
        if (mean > stageMs) {
            return both + ": removing it saved more than its stages take, because requests also queued behind it (the "
                    + "difference has the queueing it caused; the stage has only its own time)";
        }
        return both + ": removing it saved less than its stages take: the work it did partly moved elsewhere or ran beside "
                + "other work (threads share the cores), or the machine's speed moved between the runs (the full path "
                + Text.f("moved %+.3f ms between its two runs)", drift);
    }

    private static double square(Double value) {
        return value == null ? 0 : value * value;
    }

    private static double both(Double first, Double repeat) {
        return (first + repeat) / 2;
    }

    private static double stageMean(AblationResult.Part part, String stage) {
        Double mean = part.stageMeansMs().get(stage);
        return mean == null ? 0 : mean;
    }

    private static AblationResult.Part find(List<AblationResult.Part> parts, String name) {
        return parts.stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
    }
}
