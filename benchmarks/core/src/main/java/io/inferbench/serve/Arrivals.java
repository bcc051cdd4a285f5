package io.inferbench.serve;

import io.inferbench.BenchmarkException;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * When requests are meant to arrive: a Poisson process (exponential gaps, the arrivals of many independent clients)
 * or evenly spaced, at a rate, from a seed. The live generator and the simulator draw the same schedule for the same
 * seed, rate and length, so a prediction and its measurement see the same arrivals.
 */
public enum Arrivals {
    POISSON,
    UNIFORM;

    public static Arrivals parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BenchmarkException("Unknown arrival process '" + value + "': expected poisson or uniform", e);
        }
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The intended arrival times, in nanoseconds from the start, of every request in {@code seconds} at {@code rateRps}.
     */
    public long[] schedule(double rateRps, double seconds, long seed) {
        double meanGapNs = 1e9 / rateRps;
        long horizonNs = (long) (seconds * 1e9);
        long[] times = new long[(int) Math.min(Integer.MAX_VALUE - 8, Math.ceil(rateRps * seconds * 1.2) + 16)];
        SplittableRandom random = new SplittableRandom(seed);
        int n = 0;
        double t = this == POISSON ? -meanGapNs * Math.log(1 - random.nextDouble()) : 0;
        while (t < horizonNs) {
            if (n == times.length) {
                times = Arrays.copyOf(times, times.length * 2);
            }
            times[n++] = (long) t;
            t += this == POISSON ? -meanGapNs * Math.log(1 - random.nextDouble()) : meanGapNs;
        }
        return Arrays.copyOf(times, n);
    }
}
