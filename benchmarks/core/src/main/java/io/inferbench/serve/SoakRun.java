package io.inferbench.serve;

import io.inferbench.Text;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.measure.PassRecorder;
import io.inferbench.probe.GpuSampler;
import io.inferbench.probe.GpuUse;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.SoakResult;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;

/**
 * A soak: one open-loop load at one rate for many windows, without a pause between them, so what a short point cannot
 * show (a leak, fragmentation, a queue that creeps up) shows as a trend. The load is one {@link OpenLoopRun}; the
 * windows are cut afterwards by intended send time, and the memory is read on the side by a {@link MemorySampler}.
 *
 * <p>Each window's p50, p99 and max count from the intended send time, as a load point's do; a request still unfinished
 * at the drain limit counts at the limit. The trends and their verdicts come from {@link SoakTrends}.
 */
public final class SoakRun {
    /**
     * The JVM flag a soak's JVM is started with (by {@code mvn verify}): every page of the heap is written at start, so the
     * heap's first use of its pages cannot read as a growing resident set.
     */
    public static final String PRE_TOUCH = "-XX:+AlwaysPreTouch";

    /** What the soak runs on and at. */
    public record Target(String backend, String device, String model) {
    }

    private final BatchExecutor.Factory executors;
    private final MemorySampler.Source memory;
    private final GpuSampler gpu;

    /**
     * @param memory where the memory is read ({@link MemorySampler#process()} for the run's own process)
     * @param gpu    the sampler of the GPU the soak runs on; null on the CPU
     */
    SoakRun(BatchExecutor.Factory executors, MemorySampler.Source memory, GpuSampler gpu) {
        this.executors = executors;
        this.memory = memory;
        this.gpu = gpu;
    }

    /**
     * Runs the soak.
     *
     * @param schedule      intended send offsets, ns, for the soak's whole length ({@code windows * windowSeconds})
     * @param mix           each request's workload index, or null without a workload
     * @param windows       how many windows the schedule spans
     */
    SoakResult run(Target target, ServingPolicy policy, double rateRps, String rateSource, long[] schedule, int[] mix,
                   int windows, double windowSeconds, List<String> notes) throws InterruptedException {
        long windowNs = Math.round(windowSeconds * 1e9);
        long periodNs = Math.min(1_000_000_000L, windowNs / 5);
        List<Request> requests;
        MemorySampler sampler = MemorySampler.start(memory, periodNs);
        try {
            requests = new OpenLoopRun(policy, executors).run(schedule, mix, Math.max(10_000_000_000L, windowNs));
        } finally {
            sampler.close();
        }
        long startNs = requests.isEmpty() ? System.nanoTime() : requests.get(0).intendedNs - schedule[0];
        List<SoakResult.Window> cut = windows(requests, startNs, windowNs, windows, sampler);
        long completed = requests.stream().filter(Request::completed).count();
        long failed = requests.size() - completed;
        List<String> allNotes = new ArrayList<>(notes);
        if (!heapPreTouched()) {
            allNotes.add("this JVM did not pre-touch its heap (-XX:+AlwaysPreTouch, which mvn verify gives a soak): a "
                    + "growing resident set may be the heap using pages for the first time, not a leak");
        }
        long lateNs = Math.round(LoadPointResult.LATE_SEND_MS * 1e6);
        long late = requests.stream().filter(r -> r.sentNs - r.intendedNs > lateNs).count();
        if (late > 0.01 * requests.size()) {
            allNotes.add(Text.f("the generator sent %d of %d requests more than 1 ms late: it could not keep the pace, so "
                    + "the windows describe the generator as much as the model", late, requests.size()));
        }
        return new SoakResult(new SeriesKey.EngineModel(target.backend(), target.device(), target.model()),
                new SoakResult.Policy(policy.label(), policy.workers(), policy.maxBatch(),
                        policy.batching() ? policy.maxWaitMs() : null),
                new SoakResult.Load(rateRps, rateSource, windows * windowSeconds, windowSeconds),
                new SoakResult.Requests(requests.size(), completed, failed,
                        requests.isEmpty() ? 0 : failed / (double) requests.size()),
                cut, SoakTrends.latency(cut, windowSeconds), SoakTrends.memory(cut, windowSeconds), allNotes);
    }

    /** Whether this JVM touched every page of its heap at start, so the heap's resident share cannot creep up. */
    static boolean heapPreTouched() {
        return java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().contains(PRE_TOUCH);
    }

    /** The record of a soak that could not run: no windows, no trends, and why. */
    static SoakResult notRun(Target target, double windowSeconds, String why) {
        String reason = "not run: " + why;
        return new SoakResult(new SeriesKey.EngineModel(target.backend(), target.device(), target.model()),
                new SoakResult.Policy(null, 0, 0, null), new SoakResult.Load(0, why, 0, windowSeconds),
                new SoakResult.Requests(0, 0, 0, 0), List.of(),
                new SoakResult.LatencyTrend("p50Ms", SoakResult.LatencyTrend.Slope.NONE,
                        SoakTrends.LATENCY_FLOOR_PERCENT_PER_MINUTE, SoakTrends.NOT_ESTIMATED, null, null, reason),
                new SoakResult.MemoryTrend("rssMb", SoakResult.MemoryTrend.Slope.NONE,
                        SoakTrends.MEMORY_FLOOR_MB_PER_MINUTE,
                        SoakTrends.NOT_ESTIMATED, null, null, null, reason),
                List.of(reason));
    }

    /** The requests cut into windows by intended send time, in one pass, each window with the memory read at its end. */
    private List<SoakResult.Window> windows(List<Request> requests, long startNs, long windowNs, int count,
                                            MemorySampler sampler) {
        Histogram[] latency = new Histogram[count];
        long[] sent = new long[count];
        long[] errors = new long[count];
        long[] done = new long[count];
        for (int k = 0; k < count; k++) {
            latency[k] = PassRecorder.newHistogram();
        }
        for (Request r : requests) {
            if (r.completed()) {
                int finished = windowOf(r.doneNs, startNs, windowNs, count);
                if (finished >= 0) {
                    done[finished]++;
                }
            }
            int k = windowOf(r.intendedNs, startNs, windowNs, count);
            if (k < 0) {
                continue;
            }
            sent[k]++;
            if (r.completed()) {
                latency[k].recordValue(Math.max(1, r.doneNs - r.intendedNs));
            } else {
                errors[k]++;
                if (r.cutOffNs > 0) {
                    latency[k].recordValue(Math.max(1, r.cutOffNs - r.intendedNs));
                }
            }
        }
        List<SoakResult.Window> windows = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            long from = startNs + k * windowNs;
            long to = from + windowNs;
            MemorySampler.Reading reading = sampler.lastAtOrBefore(to);
            Double gpuMb = null;
            if (gpu != null) {
                GpuUse use = gpu.use(from, to, Math.max(1, done[k]), 1);
                gpuMb = use == null ? null : use.memoryUsedMaxMb();
            }
            boolean any = latency[k].getTotalCount() > 0;
            windows.add(new SoakResult.Window(k, k * windowNs / 1e9, sent[k], sent[k] - errors[k], errors[k],
                    sent[k] == 0 ? 0 : errors[k] / (double) sent[k], any ? latency[k].getValueAtPercentile(50) / 1e6 : null,
                    any ? latency[k].getValueAtPercentile(99) / 1e6 : null, any ? latency[k].getMaxValue() / 1e6 : null,
                    done[k] / (windowNs / 1e9), reading == null ? null : reading.rssMb(),
                    reading == null ? null : reading.heapAfterGcMb(), reading == null ? null : reading.directMb(), gpuMb));
        }
        return windows;
    }

    /** The window {@code atNs} falls in, or -1 outside the soak's windows. */
    private static int windowOf(long atNs, long startNs, long windowNs, int count) {
        long offset = atNs - startNs;
        return offset < 0 || offset >= count * windowNs ? -1 : (int) (offset / windowNs);
    }
}
