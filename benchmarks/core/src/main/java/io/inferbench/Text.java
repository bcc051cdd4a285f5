package io.inferbench;

import java.util.Locale;

/**
 * The one place numbers become text for people (console, Markdown, reasons): always {@link Locale#ROOT}, so a
 * machine with a comma decimal separator or other digits prints the same report as any other. JSON never goes
 * through here; Jackson writes numbers itself.
 */
public final class Text {
    private Text() {
    }

    /** {@link String#format} in {@link Locale#ROOT}. */
    public static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    /** Three decimals, or {@code n/a} for a figure that could not be computed. */
    public static String number(Double value) {
        return number(value, 3);
    }

    /** A number with {@code digits} decimals, or {@code n/a} where it was not measured. */
    public static String number(Double value, int digits) {
        return value == null ? "n/a" : f("%." + digits + "f", value);
    }

    /** A number as typed: {@code 5} rather than {@code 5.0}, {@code 0.95} as is. */
    public static String plain(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }

    /** A model path shortened to its file name, for narrow columns; built-in names are returned as they are. */
    public static String shortModelName(String model) {
        int slash = Math.max(model.lastIndexOf('/'), model.lastIndexOf('\\'));
        return slash >= 0 ? model.substring(slash + 1) : model;
    }

    /**
     * How a series is named: {@code seq 64}, or {@code batch only} for a model with no swept axis (its cells have
     * seqLen 0), so that no table or plot shows an invented sequence length.
     */
    public static String seq(int seqLen) {
        return seqLen == 0 ? "batch only" : "seq " + seqLen;
    }

    /** A sequence length in a table's seq column: the number, or {@code -} for a model that runs batch only. */
    public static String seqValue(int seqLen) {
        return seqLen == 0 ? "-" : Integer.toString(seqLen);
    }

    /** {@code text} cut to {@code max} characters, with an ellipsis where it was cut: for a line meant for people. */
    public static String shorten(String text, int max) {
        return text.length() <= max ? text : text.substring(0, Math.max(0, max - 1)) + "\u2026";
    }

    /**
     * Where a stuck thread is: its first three frames outside the JDK and the harness, or its first three where it has
     * none of its own; empty for no thread.
     */
    public static String where(Thread thread) {
        if (thread == null) {
            return "";
        }
        StackTraceElement[] stack = thread.getStackTrace();
        StackTraceElement[] own = java.util.Arrays.stream(stack).filter(f -> !f.getClassName().startsWith("java.")
                && !f.getClassName().startsWith("jdk.") && !f.getClassName().startsWith("io.inferbench.")
                && !f.getClassName().startsWith("sun.")).toArray(StackTraceElement[]::new);
        StackTraceElement[] shown = own.length > 0 ? own : stack;
        return java.util.Arrays.stream(shown).limit(3).map(StackTraceElement::toString)
                .collect(java.util.stream.Collectors.joining(" < "));
    }
}
