package io.inferbench.measure;

import com.fasterxml.jackson.annotation.JsonValue;

/** Why a cell's warm-up ended in one fork ({@link WarmupPolicy}). */
public enum WarmupEnd {
    /** Latency stopped falling, the JIT was quiet and the minimum time had passed. */
    STEADY("steady"),
    /** The cap was reached first: the passes that follow may still include a transient. */
    TIME_CAP("time cap"),
    /** {@code -Dbench.warmup=N}: a plain count. */
    FIXED_COUNT("fixed count");

    private final String label;

    WarmupEnd(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }
}
