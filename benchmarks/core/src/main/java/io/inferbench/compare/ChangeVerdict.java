package io.inferbench.compare;

import com.fasterxml.jackson.annotation.JsonValue;

/** The outcome of comparing one percentile, or one cell; {@link #REGRESSED} fails a CI gate. */
public enum ChangeVerdict {
    IMPROVED("improved"),
    REGRESSED("regressed"),
    NO_CHANGE("no change"),
    /** The passes cannot resolve the percentile, or the forks cannot bound its change: no verdict either way. */
    NOT_RESOLVED("not resolved");

    private final String label;

    ChangeVerdict(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }

    /**
     * A cell's verdict from its p50 and p99, leaving out a percentile that is not resolved: any significant
     * regression wins, then any improvement; not resolved only when neither percentile is.
     */
    public static ChangeVerdict combine(ChangeVerdict p50, ChangeVerdict p99) {
        if (p50 == REGRESSED || p99 == REGRESSED) {
            return REGRESSED;
        }
        if (p50 == IMPROVED || p99 == IMPROVED) {
            return IMPROVED;
        }
        if (p50 == NOT_RESOLVED && p99 == NOT_RESOLVED) {
            return NOT_RESOLVED;
        }
        return NO_CHANGE;
    }
}
