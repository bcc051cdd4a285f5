package io.inferbench.compare;

import io.inferbench.results.AbSection;

/**
 * An A/B run's options ({@link AbSetting}).
 *
 * @param baseline         A: a model, or a class path with a target, as given
 * @param thresholdPercent the change that is a regression
 * @param confidenceLevel  simultaneous over every interval
 * @param maxMinutes       the pairs' time cap
 * @param maxPairs         the most pairs
 * @param askedResolutionPercent the half-width a cell's p50 interval needs before {@code within} stops its pairs, as
 *                         given; null for the mode's ({@link #resolutionPercent})
 * @param floorPercent     the smallest change a cell is called {@code slower} or {@code faster} for
 *                         ({@link PairedChange})
 * @param mode             how each pair is measured
 * @param gateP99          a passing cell must rule a regression out at p99 as well as p50 ({@code -Dbench.ab.gate})
 */
public record AbOptions(String baseline, double thresholdPercent, double confidenceLevel, double maxMinutes, int maxPairs,
                        Double askedResolutionPercent, double floorPercent, Mode mode, boolean gateP99) {

    /** The resolution of {@code passes} when none is given: a pair is precise in its own fork, so 1.5% costs few pairs. */
    public static final double PASSES_RESOLUTION_PERCENT = 1.5;

    /**
     * The resolution of {@code forks} and {@code duet} when none is given: a pair there is two JVMs, and each 0.3% below
     * it cost a third more pairs (docs/statistics-and-compare.md, "The A/B gate, measured").
     */
    public static final double FORKS_RESOLUTION_PERCENT = 1.8;

    /**
     * The half-width a cell's p50 interval needs before {@code within} stops its pairs: the one given, or the mode's
     * ({@link #PASSES_RESOLUTION_PERCENT}, {@link #FORKS_RESOLUTION_PERCENT}), never above the threshold.
     */
    public double resolutionPercent() {
        if (askedResolutionPercent != null) {
            return askedResolutionPercent;
        }
        return Math.min(thresholdPercent, mode == Mode.PASSES ? PASSES_RESOLUTION_PERCENT : FORKS_RESOLUTION_PERCENT);
    }

    /** How a pair's two forks are measured ({@code -Dbench.ab.mode}). */
    public enum Mode {
        /** A's fork JVM and B's one after the other, in an order drawn per pair, each with the whole machine. */
        FORKS("forks"),
        /**
         * A's and B's fork JVMs at the same time, each pinned to its own half of the cores, which half drawn per pair:
         * both see the same moments of the machine, and a pair takes one fork's time instead of two.
         */
        DUET("duet"),
        /**
         * Each pair is one fork JVM holding A's session and B's, whose passes alternate, the order drawn per block of two,
         * each order once a block ({@code io.inferbench.sweep.AlternatingKind}): A's and B's passes are microseconds apart,
         * not a fork apart. Two builds of a target each load in a class-loader layer of their own.
         */
        PASSES("passes");

        private final String label;

        Mode(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /** The mode a {@code -Dbench.ab.mode} value names; null for none. */
        public static Mode named(String value) {
            for (Mode m : values()) {
                if (m.label.equalsIgnoreCase(value.trim())) {
                    return m;
                }
            }
            return null;
        }
    }

    /** What run.json's {@code ab} section records of these options: the rules the pairs are judged and stopped by. */
    public AbSection.Rules rules() {
        return new AbSection.Rules(thresholdPercent, resolutionPercent(), floorPercent, confidenceLevel, maxMinutes,
                maxPairs);
    }

    /** These options measured in {@code other} mode: a passes run of two builds that cannot share a JVM runs in forks. */
    public AbOptions withMode(Mode other) {
        return new AbOptions(baseline, thresholdPercent, confidenceLevel, maxMinutes, maxPairs, askedResolutionPercent,
                floorPercent, other, gateP99);
    }
}
