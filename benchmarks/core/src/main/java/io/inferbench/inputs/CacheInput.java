package io.inferbench.inputs;

import java.util.ArrayList;
import java.util.List;

/**
 * One key or value cache of a decoder: the input a step reads it from and the output the step writes it to, with the
 * past one position longer each step.
 *
 * @param past          the cache input
 * @param present       the output holding the next step's cache
 * @param type          float32 or float16
 * @param sizes         the size of each axis; -1 at the batch axis (0) and at {@code positionAxis}
 * @param positionAxis  the axis the cache grows along (a cross-attention cache's: the source positions)
 * @param cross         an encoder-decoder's cross-attention cache: {@code present} is an output of the first decoder pass
 *                      only, fed unchanged to every step; it does not grow
 */
public record CacheInput(String past, String present, ElementType type, List<Long> sizes, int positionAxis, boolean cross) {
    public CacheInput {
        sizes = List.copyOf(sizes);
    }

    /** A self-attention cache. */
    public CacheInput(String past, String present, ElementType type, List<Long> sizes, int positionAxis) {
        this(past, present, type, sizes, positionAxis, false);
    }

    /** The shape at {@code batch} and {@code positions}. */
    public long[] shape(int batch, long positions) {
        long[] shape = new long[sizes.size()];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = i == 0 ? batch : i == positionAxis ? positions : sizes.get(i);
        }
        return shape;
    }

    /** Its bytes at {@code batch} and {@code positions}. */
    public long bytes(int batch, long positions) {
        long elements = 1;
        for (long size : shape(batch, positions)) {
            elements *= size;
        }
        return elements * type.bytes();
    }

    /** The shape as it reads: {@code [batch, 8, positions, 96]}. */
    public String describe() {
        List<String> axes = new ArrayList<>();
        for (int i = 0; i < sizes.size(); i++) {
            axes.add(i == 0 ? "batch" : i == positionAxis ? "positions" : Long.toString(sizes.get(i)));
        }
        return "[" + String.join(", ", axes) + "]";
    }
}
