package io.inferbench.serve;

import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.results.LoadPointResult;
import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Turns the requests of one load point into its record: counts, percentiles per measure and per stage, batches formed. */
final class LoadPointSummary {
    private LoadPointSummary() {
    }

    /** What a load point was, before its numbers. */
    record Point(String backend, String device, String model, int seqLen, String mode, ServingPolicy policy, int concurrency,
                 Double rateRps, String purpose, double seconds) {
    }

    static LoadPointResult summarize(Point point, List<Request> requests, LoadPointResult.Prediction predicted) {
        Histogram fromIntended = PassRecorder.newHistogram();
        Histogram service = PassRecorder.newHistogram();
        Map<String, Histogram> stages = new LinkedHashMap<>();
        boolean tokenized = requests.stream().anyMatch(r -> r.tokenizeNs > 0);
        for (String stage : tokenized ? List.of("generatorLag", "queueWait", "tokenize", "prepare", "forward", "fetch")
                : List.of("generatorLag", "queueWait", "prepare", "forward", "fetch")) {
            stages.put(stage, PassRecorder.newHistogram());
        }
        Map<Integer, Long> batchSizes = new TreeMap<>();
        long completed = 0;
        long failed = 0;
        long late = 0;
        String firstError = null;
        long firstIntended = Long.MAX_VALUE;
        long lastDone = Long.MIN_VALUE;
        long lateNs = Math.round(LoadPointResult.LATE_SEND_MS * 1e6);
        for (Request r : requests) {
            firstIntended = Math.min(firstIntended, r.intendedNs);
            if (r.sentNs - r.intendedNs > lateNs) {
                late++;
            }
            if (!r.completed()) {
                failed++;
                if (firstError == null) {
                    firstError = r.error;
                }
                continue;
            }
            completed++;
            lastDone = Math.max(lastDone, r.doneNs);
            fromIntended.recordValue(Math.max(1, r.doneNs - r.intendedNs));
            service.recordValue(Math.max(1, r.doneNs - r.batchStartNs));
            stages.get("generatorLag").recordValue(Math.max(1, r.sentNs - r.intendedNs));
            stages.get("queueWait").recordValue(Math.max(1, r.batchStartNs - r.sentNs));
            if (tokenized) {
                stages.get("tokenize").recordValue(Math.max(1, r.tokenizeNs));
            }
            stages.get("prepare").recordValue(Math.max(1, r.prepareNs));
            stages.get("forward").recordValue(Math.max(1, r.forwardNs));
            stages.get("fetch").recordValue(Math.max(1, r.fetchNs));
        }
        // Batch sizes count batches, not requests: a batch of k requests was seen k times.
        Map<Integer, Long> requestsBySize = new TreeMap<>();
        for (Request r : requests) {
            if (r.batchSize > 0) {
                requestsBySize.merge(r.batchSize, 1L, Long::sum);
            }
        }
        long batches = 0;
        long batchedRequests = 0;
        for (Map.Entry<Integer, Long> e : requestsBySize.entrySet()) {
            long count = e.getValue() / e.getKey();
            batchSizes.put(e.getKey(), count);
            batches += count;
            batchedRequests += count * e.getKey();
        }
        double spanSeconds = completed == 0 ? point.seconds() : (lastDone - firstIntended) / 1e9;
        Map<String, LatencySummary> stageSummaries = new LinkedHashMap<>();
        if (completed > 0) {
            stages.forEach((name, h) -> stageSummaries.put(name, LatencySummary.of(h)));
        }
        ServingPolicy policy = point.policy();
        return new LoadPointResult(point.backend(), point.device(), point.model(), point.seqLen(), point.mode(),
                policy.label(), point.concurrency(), point.rateRps(), policy.batching() ? policy.maxWaitMs() : null,
                policy.maxBatch(), point.purpose(), point.seconds(), requests.size(), completed, failed, firstError, late,
                late <= 0.01 * requests.size(), completed / Math.max(spanSeconds, 1e-9),
                completed > 0 ? LatencySummary.of(fromIntended) : null, completed > 0 ? LatencySummary.of(service) : null,
                stageSummaries, batchSizes, batches == 0 ? null : batchedRequests / (double) batches, predicted,
                completed > 0 ? HistogramCodec.encode(fromIntended) : null);
    }
}
