package io.inferbench.serve;

import org.apache.commons.math3.stat.descriptive.rank.Median;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * How a measured point's passes compare with the forecast's: each completed batch's service (batch start to result, as
 * {@link Batches#execute} stamps it: prepare, forward and fetch, and the batch's tokenizing where the forecast adds the
 * serving path) over the forecast's median pass at that batch's rows and bucket; the median over the point's batches.
 *
 * <p>Why it is worth a number: the forecast draws passes measured one at a time in a quiet process. Served, a pass
 * shares the cores with the generator's sends, the workers' hand-offs and the JVM, and runs on a machine whose speed may
 * have moved since the sweep, so served passes can run measurably slower than the same shapes back to back (measured:
 * docs/findings.md, "Passes under load"). Near saturation a boundary is steep in the pass time:
 * at max wait 0 a slower pass forms larger batches, which take longer still. The ratios say how much of a
 * prediction's miss is the passes (their median, and their tail: a pass preempted by the generator or the JVM waits for
 * a core), and a re-simulation with passes drawn as served says how much is the queueing model.
 */
final class ServedPasses {
    private ServedPasses() {
    }

    /**
     * Each completed batch's served service over the forecast's median pass at the batch's rows and bucket, sorted; empty
     * when no batch completed.
     *
     * @param bucketOf a request's workload index to the bucket it pads to; null without a workload
     */
    static double[] ratios(List<Request> requests, QueueSimulator forecast, IntUnaryOperator bucketOf) {
        double[] ratios = timeline(requests, forecast, bucketOf, 0).ratios().clone();
        Arrays.sort(ratios);
        return ratios;
    }

    /**
     * Each completed batch's start ({@code originNs} subtracted) and served-over-median ratio, in the order the batches
     * started.
     */
    record Timeline(long[] startsNs, double[] ratios) {
    }

    static Timeline timeline(List<Request> requests, QueueSimulator forecast, IntUnaryOperator bucketOf, long originNs) {
        Map<Long, List<Request>> batches = new java.util.TreeMap<>();
        for (Request r : requests) {
            if (r.completed()) {
                // One batch's requests share its start stamp (one nanoTime read per batch, see Batches.execute).
                batches.computeIfAbsent(r.batchStartNs, k -> new ArrayList<>()).add(r);
            }
        }
        double[] ratios = new double[batches.size()];
        long[] starts = new long[batches.size()];
        int n = 0;
        for (List<Request> batch : batches.values()) {
            Request first = batch.get(0);
            int seq = 0;
            if (bucketOf != null) {
                for (Request r : batch) {
                    if (r.workloadIndex >= 0) {
                        seq = Math.max(seq, bucketOf.applyAsInt(r.workloadIndex));
                    }
                }
            }
            long forecastNs = forecast.timesAt(seq).quantile(first.batchSize * forecast.rowsPerRequest(), 0.5);
            starts[n] = first.batchStartNs - originNs;
            ratios[n++] = (first.doneNs - first.batchStartNs) / (double) Math.max(1, forecastNs);
        }
        return new Timeline(starts, ratios);
    }

    /**
     * The point simulated again on its own sends: request {@code i} enters the queue at its measured send time and its
     * latency counts from its intended one, with {@code asServed}'s passes. Requests are in send order (one generator
     * sends them one by one), so the send times are sorted as the simulator needs.
     *
     * @param requestSeq each request's bucket, or null without a workload
     */
    static double replayedP99Ms(List<Request> requests, QueueSimulator asServed, ServingPolicy policy, long seed,
                                int[] requestSeq) {
        return replay(requests, asServed, policy, seed, requestSeq);
    }

    /**
     * As {@link #replayedP99Ms}, with each pass taking the ratio of the served batch running at its start
     * ({@link QueueSimulator#servedInTime}): the point's slow spells kept where they were.
     */
    static double replayedInTimeP99Ms(List<Request> requests, QueueSimulator forecast, IntUnaryOperator bucketOf,
                                      ServingPolicy policy, long seed, int[] requestSeq) {
        long originNs = requests.isEmpty() ? 0 : requests.get(0).intendedNs;
        Timeline t = timeline(requests, forecast, bucketOf, originNs);
        if (t.ratios().length == 0) {
            return Double.NaN;
        }
        return replay(requests, forecast.servedInTime(t.startsNs(), t.ratios()), policy, seed, requestSeq);
    }

    private static double replay(List<Request> requests, QueueSimulator asServed, ServingPolicy policy, long seed,
                                 int[] requestSeq) {
        int n = requests.size();
        long originNs = n == 0 ? 0 : requests.get(0).intendedNs;
        long[] sentNs = new long[n];
        long[] intendedNs = new long[n];
        for (int i = 0; i < n; i++) {
            Request r = requests.get(i);
            sentNs[i] = r.sentNs - originNs;
            intendedNs[i] = r.intendedNs - originNs;
        }
        return asServed.simulate(sentNs, policy, seed, requestSeq, intendedNs).percentileMs(99);
    }

    /** The median of {@code ratios} (the middle two's mean when their count is even); null when empty. */
    static Double median(double[] ratios) {
        return ratios.length == 0 ? null : new Median().evaluate(ratios);
    }

    /** The 99th percentile (nearest rank, as the forecast draws) of sorted {@code ratios}; null when empty. */
    static Double p99(double[] ratios) {
        return ratios.length == 0 ? null : ServiceTimes.at(ratios, 0.99);
    }
}
