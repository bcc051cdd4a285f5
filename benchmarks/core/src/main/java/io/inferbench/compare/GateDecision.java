package io.inferbench.compare;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a comparison lets a pull request's gate conclude about one cell, failing closed: the same rule for an A/B run's
 * pairs ({@link PairedAnalysis}) and for two runs compared ({@link Comparison}). A cell passes only when its p50 interval
 * (and its p99's, where the gate covers p99) lies wholly below the threshold, that is, when a regression of the
 * threshold's size is ruled out. A cell with no interval (too few pairs or forks), with an interval that reaches past
 * the threshold, or with data the run doubts and does not prove a change from, is {@link #UNDECIDED}, never a pass.
 *
 * <p>This is not the verdict ({@link PairedVerdict}, {@link ChangeVerdict}): {@code within} still means "no change of
 * the resolution's size", and an interval {@code [-9, +3]} is {@code unresolved} as a verdict but rules out a 5%
 * regression, so it passes the gate.
 */
public enum GateDecision {
    /** A change of the threshold's size or more is shown: the interval lies wholly above it (exit code 1). */
    REGRESSION("regression"),
    /** A regression of the threshold's size is ruled out: the interval lies wholly below it. */
    NO_REGRESSION("no regression shown"),
    /** Neither shown nor ruled out: no interval yet, one that reaches past the threshold, or doubted data (exit code 4). */
    UNDECIDED("undecided"),
    /** A subject's cell failed: nothing to compare (exit code 1). */
    FAILED("failed");

    private final String label;

    GateDecision(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }

    /**
     * The whole comparison's decision from its cells': a regression or a failed cell wins (the gate fails on a finding),
     * then any undecided cell; {@link #NO_REGRESSION} only when every cell ruled a regression out. No cells at all is
     * {@link #UNDECIDED}: nothing compared is no evidence.
     */
    public static GateDecision overall(List<GateDecision> cells) {
        if (cells.isEmpty()) {
            return UNDECIDED;
        }
        if (cells.contains(REGRESSION)) {
            return REGRESSION;
        }
        if (cells.contains(FAILED)) {
            return FAILED;
        }
        return cells.contains(UNDECIDED) ? UNDECIDED : NO_REGRESSION;
    }

    /**
     * The decision and the count of cells for each, as the first line of ab.md and compare.md says it:
     * {@code undecided: 0 regression, 1 no regression shown, 2 undecided of 3 cells}.
     */
    public static <T> String headline(List<T> cells, Function<T, GateDecision> decision) {
        List<GateDecision> all = cells.stream().map(decision).toList();
        Map<GateDecision, Long> counts = all.stream().collect(Collectors.groupingBy(d -> d, Collectors.counting()));
        long failed = counts.getOrDefault(FAILED, 0L);
        return overall(all).label() + ": " + counts.getOrDefault(REGRESSION, 0L) + " regression, "
                + counts.getOrDefault(NO_REGRESSION, 0L) + " no regression shown, " + counts.getOrDefault(UNDECIDED, 0L)
                + " undecided" + (failed == 0 ? "" : ", " + failed + " failed") + " of " + cells.size() + " cell(s)";
    }

    /**
     * Whether a gate covers p99 as well as p50, from a {@code -Dbench.ab.gate} or {@code -Dcompare.gate} value: {@code p50}
     * (the default: p99 over one fork's passes is heavy-tailed, and a p99 that is not ruled out would leave many cells
     * undecided) or {@code p50,p99}. A proven p99 regression is a regression either way.
     */
    public static boolean gatesP99(String value, String property) {
        String v = value.replace(" ", "").toLowerCase(java.util.Locale.ROOT);
        return switch (v) {
            case "p50" -> false;
            case "p50,p99", "p99,p50" -> true;
            default -> throw new io.inferbench.BenchmarkException("-D" + property + " is p50 (a cell passes when its p50 "
                    + "interval rules a regression out) or p50,p99 (its p99's too); got '" + value + "'");
        };
    }

    /**
     * The text a passing cell reads: {@code no regression of 5% or more (interval [-1.2, +2.0])}.
     *
     * @param ciLowPercent  the interval's lower end, in percent
     * @param ciHighPercent its upper end, below {@code thresholdPercent}
     */
    public static String passText(String percentile, double thresholdPercent, double ciLowPercent, double ciHighPercent) {
        return io.inferbench.Text.f("%s: no regression of %s%% or more (interval [%+.1f, %+.1f])", percentile,
                io.inferbench.Text.plain(thresholdPercent), ciLowPercent, ciHighPercent);
    }
}
