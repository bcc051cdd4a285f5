package io.inferbench.compare;

import io.inferbench.BenchmarkException;
import io.inferbench.option.Option;
import io.inferbench.option.PropertyValues;

import java.util.Properties;

/**
 * An A/B run's settings ({@code -Dbench.ab.baseline}, docs/statistics-and-compare.md): what A is, what counts as a
 * regression, and how long the pairs may go on. Owned here, beside what reads them ({@link #read}).
 */
public enum AbSetting implements Option.Defined {
    AB_BASELINE("bench.ab.baseline", "", "an A/B run: A, the baseline measured in the same run as the run's own subject B, "
            + "pair by pair. A's model (a file or export folder; `bench.model` is B's), or with `bench.target` A's class "
            + "path (`bench.classpath` is B's), entries separated by `:`. The same as B's is an A/A run"),
    AB_THRESHOLD("bench.ab.threshold", "5", "an A/B run: a change in percent that is a regression once its interval lies "
            + "wholly above it"),
    AB_RESOLUTION("bench.ab.resolution", "", "an A/B run: a cell whose p50 interval lies within the threshold goes on "
            + "pairing until the interval's half-width is at most this many percent, so that `within` means no change of "
            + "this size; a regression or a `faster` stops it at once. Empty means 1.5 in `passes` and 1.8 in `forks` and "
            + "`duet`"),
    AB_FLOOR("bench.ab.floor", "0.5", "an A/B run: the smallest change in percent a cell is called `slower` or `faster` "
            + "for: its interval must lie wholly beyond it. An interval wholly above 0 but not above the floor, and inside "
            + "the threshold, is `within`. 0 calls any interval that excludes 0. Left unset, it is at most half the "
            + "threshold"),
    AB_GATE("bench.ab.gate", "p50", "an A/B run: what a cell must rule a regression out at to pass: `p50` or `p50,p99`; "
            + "a cell whose interval reaches past the threshold, or that has none, is `undecided` (exit code 4). A proven "
            + "regression at p99 fails the gate either way"),
    AB_CONFIDENCE("bench.ab.confidence", "0.95", "an A/B run: simultaneous confidence of all its intervals together (every "
            + "cell's p50 and p99)"),
    AB_MAX_MINUTES("bench.ab.maxMinutes", "5", "an A/B run: the time cap of its pairs; no pair starts that would end after "
            + "it, as the last one took"),
    AB_MAX_PAIRS("bench.ab.maxPairs", "40", "an A/B run: the most pairs; the pairs stop sooner once every cell's p50 is "
            + "decided"),
    AB_MODE("bench.ab.mode", "auto", "an A/B run: how a pair is measured. `auto`: `passes`, or `forks` where A's build "
            + "and B's hold native code that differs (the run says so). `forks`: A's fork JVM and B's one after the other, "
            + "in an order drawn per pair, each with the whole machine. `duet`: both at the same time, each pinned to its "
            + "own half of the cores (taskset; at least 2 cores), each with at most half the cores' threads. `passes`: one "
            + "fork JVM per pair holds A's session and B's (two models on one thread pool; two builds of a target each in "
            + "a class-loader layer of its own), and their passes alternate in an order drawn per block of two, each order "
            + "once a block");

    private final Option.Definition definition;

    AbSetting(String property, String defaultValue, String meaning) {
        this.definition = new Option.Definition(property, defaultValue, meaning);
    }

    @Override
    public Option.Definition definition() {
        return definition;
    }

    /** What {@code -Dbench.ab.mode} defaults to: the most sensitive mode the subjects allow. */
    public static final String AUTO = "auto";

    /**
     * An A/B run's options, or null when {@code -Dbench.ab.baseline} is not set (and no other A/B setting is).
     *
     * @param target whether the run measures a user's target ({@code -Dbench.target}); {@code auto} is {@code passes}
     *               either way (a target's two builds each load in a class-loader layer of their own), and the A/B
     *               command falls back to {@code forks} where the two cannot share a JVM
     *               (docs/statistics-and-compare.md, "Forks, duet or passes", has why)
     */
    public static AbOptions read(Properties p, boolean target) {
        if (AB_BASELINE.userValue(p).isEmpty()) {
            for (AbSetting s : values()) {
                if (s.userValue(p).isPresent()) {
                    throw new BenchmarkException("-D" + s.property() + " sets an A/B run, and no A was given: add "
                            + "-Dbench.ab.baseline=A (A's model, or A's class path with -Dbench.target), or drop it");
                }
            }
            return null;
        }
        double confidence = PropertyValues.parseDouble(AB_CONFIDENCE, p);
        if (!(confidence > 0.5 && confidence < 1)) {
            throw new BenchmarkException("-Dbench.ab.confidence is a level between 0.5 and 1, e.g. 0.95; got " + confidence);
        }
        double threshold = PropertyValues.parseDouble(AB_THRESHOLD, p);
        if (!(threshold > 0 && threshold < 100)) {
            throw new BenchmarkException("-Dbench.ab.threshold is a change in percent above 0 and below 100, e.g. 5; got "
                    + threshold);
        }
        double minutes = PropertyValues.parseDouble(AB_MAX_MINUTES, p);
        if (!(minutes > 0) || Double.isInfinite(minutes)) {
            throw new BenchmarkException("-Dbench.ab.maxMinutes is a positive number of minutes, e.g. 5; got " + minutes);
        }
        int maxPairs = PropertyValues.positiveInt(AB_MAX_PAIRS, p);
        if (maxPairs > PairedChange.MAX_PAIRS) {
            throw new BenchmarkException("-Dbench.ab.maxPairs is at most " + PairedChange.MAX_PAIRS + "; got " + maxPairs);
        }
        Double resolution = AB_RESOLUTION.userValue(p).isEmpty() ? null : PropertyValues.parseDouble(AB_RESOLUTION, p);
        if (resolution != null && !(resolution > 0 && resolution <= threshold)) {
            throw new BenchmarkException("-Dbench.ab.resolution is a half-width in percent above 0 and at most the threshold ("
                    + threshold + "), e.g. 1.5; got " + resolution);
        }
        double floor = AB_FLOOR.userValue(p).isPresent() ? PropertyValues.parseDouble(AB_FLOOR, p)
                : Math.min(Double.parseDouble(AB_FLOOR.defaultValue()), threshold / 2);
        if (!(floor >= 0 && floor < threshold)) {
            throw new BenchmarkException("-Dbench.ab.floor is a change in percent from 0 up to below the threshold ("
                    + threshold + "), e.g. 0.5; got " + floor);
        }
        AbOptions.Mode mode = AB_MODE.value(p).trim().equalsIgnoreCase(AUTO)
                ? AbOptions.Mode.PASSES : AbOptions.Mode.named(AB_MODE.value(p));
        if (mode == null) {
            throw new BenchmarkException("-Dbench.ab.mode is auto (the default: passes where A and B can share a JVM), forks (A's and B's fork "
                    + "JVMs one after the other), duet (both at the same time, each on half the cores) or passes (A's session "
                    + "and B's in one fork JVM, their passes alternating); got " + AB_MODE.value(p));
        }
        return new AbOptions(AB_BASELINE.userValue(p).orElseThrow(), threshold, confidence, minutes, maxPairs, resolution,
                floor, mode, GateDecision.gatesP99(AB_GATE.value(p), AB_GATE.property()));
    }
}
