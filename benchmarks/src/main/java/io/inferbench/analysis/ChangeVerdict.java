package io.inferbench.analysis;

import com.fasterxml.jackson.annotation.JsonValue;

/** The outcome of comparing one cell; {@link #REGRESSED} fails a CI gate. */
public enum ChangeVerdict {
    IMPROVED("improved"),
    REGRESSED("regressed"),
    NO_CHANGE("no change");

    private final String label;

    ChangeVerdict(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }

    /** A cell's verdict from its p50 and p99: any significant regression wins, then any improvement. */
    public static ChangeVerdict combine(ChangeVerdict p50, ChangeVerdict p99) {
        if (p50 == REGRESSED || p99 == REGRESSED) {
            return REGRESSED;
        }
        if (p50 == IMPROVED || p99 == IMPROVED) {
            return IMPROVED;
        }
        return NO_CHANGE;
    }
}
