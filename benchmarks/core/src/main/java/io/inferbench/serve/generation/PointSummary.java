package io.inferbench.serve.generation;

import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.results.GenerationServing;
import io.inferbench.serve.Overload;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A load point's trace as its results: each request's times from its intended send into HdrHistograms, whether the
 * decoder kept up (the serving points' rule: nothing unfinished, and results coming back at the rate requests were
 * sent), the batches formed, and the SLO's judgement.
 */
final class PointSummary {
    private static final int CACHE_SAMPLES = 100;

    final GenerationServing.Requests requests;
    final GenerationServing.Latencies latency;
    final GenerationServing.Formed formed;
    final GenerationServing.Slo slo;
    final Double offeredRps;

    PointSummary(Scheduler.Trace trace, double seconds, GenerationLoadOptions.Slo bound) {
        Histogram ttft = histogram();
        Histogram tpot = histogram();
        Histogram itl = histogram();
        Histogram e2e = histogram();
        Histogram queue = histogram();
        long limit = trace.limitNs();
        long completed = 0;
        long failed = 0;
        long unfinished = 0;
        long good = 0;
        long tokens = 0;
        long lastDone = 0;
        String firstError = null;
        for (LoadRequest r : trace.requests()) {
            if (r.failed()) {
                failed++;
                firstError = firstError == null ? r.error : firstError;
                continue;
            }
            tokens += r.tokens;
            for (int i = 1; i < r.tokens; i++) {
                itl.recordValue(Math.max(1, r.tokenNs[i] - r.tokenNs[i - 1]));
            }
            queue.recordValue(Math.max(1, (r.prefillStartNs < 0 ? limit : r.prefillStartNs) - r.intendedNs));
            long first = (r.tokens > 0 ? r.tokenNs[0] : limit) - r.intendedNs;
            ttft.recordValue(Math.max(1, first));
            if (!r.done()) {
                unfinished++;
                e2e.recordValue(Math.max(1, limit - r.intendedNs));
                continue;
            }
            completed++;
            long last = r.tokenNs[r.tokens - 1];
            lastDone = Math.max(lastDone, last);
            e2e.recordValue(Math.max(1, last - r.intendedNs));
            Double perToken = null;
            if (r.tokens > 1) {
                long mean = (last - r.tokenNs[0]) / (r.tokens - 1);
                tpot.recordValue(Math.max(1, mean));
                perToken = mean / 1e6;
            }
            if (bound != null && bound.meets(first / 1e6, perToken)) {
                good++;
            }
        }
        List<LoadRequest> all = trace.requests();
        long sent = all.size();
        long firstIntended = all.isEmpty() ? 0 : all.get(0).intendedNs;
        offeredRps = Overload.offeredRps(sent, firstIntended, all.isEmpty() ? 0 : all.get(all.size() - 1).intendedNs);
        String overload = Overload.reason(unfinished, sent, completed, offeredRps, firstIntended, lastDone,
                e2e.getValueAtPercentile(50));
        double span = Math.max(1e-9, (Math.max(lastDone, all.isEmpty() ? 0 : all.get(all.size() - 1).intendedNs)) / 1e9);
        requests = new GenerationServing.Requests(sent, completed, failed, unfinished, firstError, overload != null,
                overload, tokens / span);
        latency = new GenerationServing.Latencies(summary(ttft), summary(tpot), summary(itl), summary(e2e), summary(queue));
        formed = formed(trace);
        if (bound == null) {
            slo = null;
        } else {
            Double ttftP99 = latency.ttftMs() == null ? null : latency.ttftMs().p99Ms();
            Double tpotP99 = latency.tpotMs() == null ? null : latency.tpotMs().p99Ms();
            boolean met = requests.errorRate() <= bound.maxErrorRate() && !requests.overloaded()
                    && bound.meets(ttftP99, tpotP99);
            slo = new GenerationServing.Slo(bound.ttftMs(), bound.tpotMs(), met, good / seconds,
                    sent == 0 ? 0 : 100.0 * good / sent);
        }
    }

    private static GenerationServing.Formed formed(Scheduler.Trace trace) {
        Map<Integer, Long> byRows = new TreeMap<>();
        long rows = 0;
        long peak = 0;
        double bytes = 0;
        for (Scheduler.StepSample s : trace.steps()) {
            byRows.merge(s.rows(), 1L, Long::sum);
            rows += s.rows();
            peak = Math.max(peak, s.cacheBytes());
            bytes += s.cacheBytes();
        }
        int n = trace.steps().size();
        List<GenerationServing.CacheSample> samples = new ArrayList<>();
        for (int i = 0; n > 0 && i < Math.min(CACHE_SAMPLES, n); i++) {
            Scheduler.StepSample s = trace.steps().get((int) ((long) i * (n - 1) / Math.max(1, Math.min(CACHE_SAMPLES, n) - 1)));
            samples.add(new GenerationServing.CacheSample(s.atNs() / 1e6, s.rows(), s.cacheBytes(), s.usedCacheBytes()));
        }
        return new GenerationServing.Formed(byRows, n == 0 ? null : rows / (double) n, new TreeMap<>(trace.prefillsByRows()),
                peak, n == 0 ? 0 : bytes / n, samples, trace.relayoutNs() / 1e6);
    }

    private static Histogram histogram() {
        return new Histogram(1, PassRecorder.HIGHEST_TRACKABLE_NS, PassRecorder.SIGNIFICANT_DIGITS);
    }

    private static LatencySummary summary(Histogram h) {
        return h.getTotalCount() == 0 ? null : LatencySummary.of(h);
    }
}
