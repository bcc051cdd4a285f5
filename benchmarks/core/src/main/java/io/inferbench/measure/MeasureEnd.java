package io.inferbench.measure;

import com.fasterxml.jackson.annotation.JsonValue;

/** Why a cell's measurement stopped in one fork ({@link StopPolicy}). */
public enum MeasureEnd {
    /** The p50's interval was within the precision, with the minimum passes and time. */
    PRECISE("precise"),
    /** The cap was reached first: the precision reached is recorded beside it. */
    TIME_CAP("time cap"),
    /** {@code -Dbench.iterations=N}: a plain count. */
    FIXED_COUNT("fixed count");

    private final String label;

    MeasureEnd(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }
}
