package io.inferbench.serve;

import io.inferbench.analysis.SeriesKey;
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
        for (String stage : tokenized ? List.of("generatorLag", "workerWait", "batcherHold", "tokenize", "prepare", "forward", "fetch")
                : List.of("generatorLag", "workerWait", "batcherHold", "prepare", "forward", "fetch")) {
            stages.put(stage, PassRecorder.newHistogram());
        }
        Map<Integer, Long> batchSizes = new TreeMap<>();
        long completed = 0;
        long failed = 0;
        long late = 0;
        long unfinished = 0;
        String firstError = null;
        long firstIntended = Long.MAX_VALUE;
        long lastIntended = Long.MIN_VALUE;
        long firstSent = Long.MAX_VALUE;
        long lastSent = Long.MIN_VALUE;
        long lastDone = Long.MIN_VALUE;
        long lateNs = Math.round(LoadPointResult.LATE_SEND_MS * 1e6);
        for (Request r : requests) {
            firstIntended = Math.min(firstIntended, r.intendedNs);
            lastIntended = Math.max(lastIntended, r.intendedNs);
            if (r.sentNs > 0) {
                firstSent = Math.min(firstSent, r.sentNs);
                lastSent = Math.max(lastSent, r.sentNs);
            }
            if (r.sentNs - r.intendedNs > lateNs) {
                late++;
            }
            if (!r.completed()) {
                failed++;
                if (firstError == null) {
                    firstError = r.error;
                }
                if (r.cutOffNs > 0) {
                    // The slowest requests of an overloaded point: leaving them out would understate every tail.
                    unfinished++;
                    fromIntended.recordValue(Math.max(1, r.cutOffNs - r.intendedNs));
                }
                continue;
            }
            completed++;
            lastDone = Math.max(lastDone, r.doneNs);
            fromIntended.recordValue(Math.max(1, r.doneNs - r.intendedNs));
            service.recordValue(Math.max(1, r.doneNs - r.batchStartNs));
            // A stage of 0 ns is recorded as 1 ns: HdrHistogram's lowest value here.
            r.stagesNs(tokenized).forEach((stage, ns) -> stages.get(stage).recordValue(Math.max(1, ns)));
            // A target's own parts of its call, nested in forward (forward.NAME): new names appear as calls mark them.
            r.forwardPartsNs().forEach((stage, ns) -> stages.computeIfAbsent(stage, s -> PassRecorder.newHistogram())
                    .recordValue(Math.max(1, ns)));
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
        double achieved = completed / Math.max(spanSeconds, 1e-9);
        Double offered = point.rateRps() == null ? null : Overload.offeredRps(requests.size(), firstIntended, lastIntended);
        String overload = Overload.reason(unfinished, requests.size(), completed, offered, firstIntended, lastDone,
                fromIntended.getValueAtPercentile(50));
        boolean paced = late <= 0.01 * requests.size();
        Double sent = offered == null || lastSent <= firstSent ? null : (requests.size() - 1) / ((lastSent - firstSent) / 1e9);
        boolean generatorLimited = sent != null && sent < LoadPointResult.GENERATOR_RATE_RATIO * offered;
        Map<String, LatencySummary> stageSummaries = new LinkedHashMap<>();
        if (completed > 0) {
            stages.forEach((name, h) -> stageSummaries.put(name, LatencySummary.of(h)));
        }
        ServingPolicy policy = point.policy();
        return new LoadPointResult(new SeriesKey(point.backend(), point.device(), point.model(), point.seqLen()),
                new LoadPointResult.Load(point.mode(), policy.label(), point.concurrency(), point.rateRps(),
                        policy.batching() ? policy.maxWaitMs() : null, policy.maxBatch(), point.purpose(), point.seconds()),
                new LoadPointResult.Requests(requests.size(), completed, failed, firstError, late, unfinished),
                new LoadPointResult.Pacing(paced, overload != null, overload, paced && overload == null, offered, sent,
                        generatorLimited, achieved),
                new LoadPointResult.Latency(fromIntended.getTotalCount() > 0 ? LatencySummary.of(fromIntended) : null,
                        completed > 0 ? LatencySummary.of(service) : null, stageSummaries, batchSizes,
                        batches == 0 ? null : batchedRequests / (double) batches),
                predicted, fromIntended.getTotalCount() > 0 ? HistogramCodec.encode(fromIntended) : null);
    }
}
