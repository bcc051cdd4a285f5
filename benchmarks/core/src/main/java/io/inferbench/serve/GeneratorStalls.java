package io.inferbench.serve;

import io.inferbench.results.LoadPointResult;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * When the load generator could not send, as a measured run of the live loop saw it, to be replayed in a forecast: each
 * late send (over {@link LoadPointResult#LATE_SEND_MS} ms, as a point counts them: a parked thread's usual wake-up, tens
 * of microseconds, is left out) marks the generator stalled from its intended time to its send (merged where they
 * overlap), on the run's own clock. A forecast's arrivals are sent as that pattern, repeated end to end from a seeded
 * phase, would let them: a request meant for a stalled moment enters the queue when the stall ends, in order, its
 * latency still counted from when it was meant. Stalls come as bursts this way, as they do live, where independent
 * draws of each send's lag would scatter them.
 *
 * <p>Why: the generator shares the machine with the engine, so its sends run late, and that lag is in the measured p99
 * (docs/findings.md, "The generator's stalls"); a forecast without it reads the p99 low.
 *
 * <p>Units: nanoseconds on the run's clock, from its first intended send. Immutable.
 */
final class GeneratorStalls {
    private static final long LATE_NS = Math.round(LoadPointResult.LATE_SEND_MS * 1e6);
    private final long periodNs;
    /** Sorted, non-overlapping stalls within one period: starts and ends (an end may pass the period's end). */
    private final long[] startsNs;
    private final long[] endsNs;

    private GeneratorStalls(long periodNs, long[] startsNs, long[] endsNs) {
        this.periodNs = periodNs;
        this.startsNs = startsNs;
        this.endsNs = endsNs;
    }

    /**
     * The stalls of a measured open-loop run, its requests in send order; null with fewer than two requests (no period
     * to repeat). Every request counts, completed or not: a send's lateness is the generator's, whatever became of it.
     */
    static GeneratorStalls of(List<Request> requests) {
        if (requests.size() < 2) {
            return null;
        }
        long originNs = requests.get(0).intendedNs;
        long lastNs = requests.get(requests.size() - 1).intendedNs - originNs;
        // The period the requests cover: their span and one mean gap, so that the pattern repeats at the run's own rate.
        long periodNs = Math.max(1, lastNs + lastNs / (requests.size() - 1));
        List<long[]> merged = new ArrayList<>();
        for (Request r : requests) {
            long start = r.intendedNs - originNs;
            long end = r.sentNs - originNs;
            if (end - start <= LATE_NS) {
                continue;
            }
            long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && start <= last[1]) {
                last[1] = Math.max(last[1], end);
            } else {
                merged.add(new long[] {start, end});
            }
        }
        long[] starts = new long[merged.size()];
        long[] ends = new long[merged.size()];
        for (int i = 0; i < merged.size(); i++) {
            starts[i] = merged.get(i)[0];
            ends[i] = merged.get(i)[1];
        }
        return new GeneratorStalls(periodNs, starts, ends);
    }

    /**
     * When each of {@code intendedNs} (sorted) is sent with these stalls repeated from a phase drawn from {@code seed}:
     * a request meant for a stalled moment at the end of that stall, the others when meant; never before an earlier one
     * (one generator sends in order). Sorted, as the simulator needs.
     */
    long[] sendTimes(long[] intendedNs, long seed) {
        long[] sent = intendedNs.clone();
        if (startsNs.length == 0) {
            return sent;
        }
        long phase = new SplittableRandom(seed).nextLong(periodNs);
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < sent.length; i++) {
            long u = intendedNs[i] + phase;
            long within = Math.floorMod(u, periodNs);
            // A stall of this period, or one of the period before that runs past its end.
            long end = Math.max(stallEndAt(within), stallEndAt(within + periodNs) - periodNs);
            long at = end > within ? intendedNs[i] + (end - within) : intendedNs[i];
            sent[i] = Math.max(at, previous);
            previous = sent[i];
        }
        return sent;
    }

    /** The end of the stall covering {@code t} within a period (its start at or before, its end after), or {@code t}. */
    private long stallEndAt(long t) {
        int i = Arrays.binarySearch(startsNs, t);
        int at = i >= 0 ? i : -i - 2;
        return at >= 0 && endsNs[at] > t ? endsNs[at] : t;
    }

    /** How many stalls one period holds. */
    int count() {
        return startsNs.length;
    }

    /** The share of the period the generator was stalled, in percent. */
    double stalledPercent() {
        long sum = 0;
        for (int i = 0; i < startsNs.length; i++) {
            sum += endsNs[i] - startsNs[i];
        }
        return 100.0 * sum / periodNs;
    }

    /** The longest stall, in milliseconds; 0 when none. */
    double longestMs() {
        long longest = 0;
        for (int i = 0; i < startsNs.length; i++) {
            longest = Math.max(longest, endsNs[i] - startsNs[i]);
        }
        return longest / 1e6;
    }

    long periodNs() {
        return periodNs;
    }
}
