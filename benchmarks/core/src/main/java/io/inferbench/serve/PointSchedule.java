package io.inferbench.serve;

import java.util.function.IntUnaryOperator;

/**
 * A point's load, made in one place: its seed (the run's, mixed with what the point is and its parameters, so a rerun
 * sends the same schedule), the intended arrival times, and with a workload which of its requests each arrival sends.
 *
 * @param seed       the point's seed, which its forecast also draws from
 * @param arrivalsNs intended arrival times from the point's start
 * @param mix        each arrival's request in the workload; null without a workload
 */
public record PointSchedule(long seed, long[] arrivalsNs, int[] mix) {
    /** A point's seed: the run's, mixed with what the point is and its parameters. */
    public static long seed(long runSeed, String what, long a, long b) {
        return runSeed * 1_000_003L ^ what.hashCode() * 31L ^ a * 7919L ^ b;
    }

    /** The arrivals of {@code rate} for {@code seconds} from {@code seed}, and the requests from the same seed. */
    static PointSchedule of(ServeOptions options, RequestShape inputs, double rate, double seconds, long seed) {
        return of(options, inputs, rate, seconds, seed, seed);
    }

    /** As above, the requests drawn from a seed of their own. */
    static PointSchedule of(ServeOptions options, RequestShape inputs, double rate, double seconds, long seed,
                            long mixSeed) {
        long[] arrivals = options.arrivals().schedule(rate, seconds, seed);
        return new PointSchedule(seed, arrivals, inputs instanceof RequestInputs w ? w.mix(arrivals.length, mixSeed) : null);
    }

    /** Each of {@code count} requests' bucket, for the simulator; null without a workload. */
    static int[] requestSeq(RequestShape inputs, int[] mix, int count) {
        if (mix == null || !(inputs instanceof RequestInputs w)) {
            return null;
        }
        int[] seq = new int[count];
        for (int i = 0; i < count; i++) {
            seq[i] = w.bucketOf(mix[i % mix.length]);
        }
        return seq;
    }

    /** A workload request's bucket, for {@link ServedPasses}; null without a workload. */
    static IntUnaryOperator bucketOf(RequestShape inputs) {
        return inputs instanceof RequestInputs w ? w::bucketOf : null;
    }
}
