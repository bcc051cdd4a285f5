package io.inferbench.inputs;

import io.inferbench.BenchmarkException;

import java.util.Arrays;
import java.util.Locale;

/** The element types the harness can fill, named as in an input spec and in run.json. */
public enum ElementType {
    FLOAT32("float32", 4, true),
    FLOAT16("float16", 2, true),
    INT64("int64", 8, false),
    INT32("int32", 4, false),
    BOOL("bool", 1, false);

    private final String label;
    private final int bytes;
    private final boolean floating;

    ElementType(String label, int bytes, boolean floating) {
        this.label = label;
        this.bytes = bytes;
        this.floating = floating;
    }

    public String label() {
        return label;
    }

    public int bytes() {
        return bytes;
    }

    public boolean isFloat() {
        return floating;
    }

    public boolean isInteger() {
        return this == INT64 || this == INT32;
    }

    /** {@code float32} (or {@code float}), {@code float16}, {@code int64}, {@code int32}, {@code bool}. */
    public static ElementType parse(String value, String where) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("float")) {
            return FLOAT32;
        }
        for (ElementType t : values()) {
            if (t.label.equals(v)) {
                return t;
            }
        }
        throw new BenchmarkException(where + " has type '" + value + "', which the harness cannot fill. Use one of "
                + Arrays.stream(values()).map(ElementType::label).toList());
    }

    @Override
    public String toString() {
        return label;
    }
}
