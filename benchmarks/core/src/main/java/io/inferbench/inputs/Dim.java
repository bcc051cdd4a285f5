package io.inferbench.inputs;

/**
 * One axis of an input: a fixed size, or a dynamic axis known by its name.
 *
 * @param name the axis name; for a fixed axis, null
 * @param size the fixed size, or -1 for a dynamic axis
 */
public record Dim(String name, long size) {
    public static Dim fixed(long size) {
        return new Dim(null, size);
    }

    public static Dim named(String name) {
        return new Dim(name, -1);
    }

    public boolean isFixed() {
        return size >= 0;
    }

    @Override
    public String toString() {
        return isFixed() ? Long.toString(size) : name;
    }
}
