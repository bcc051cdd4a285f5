package io.inferbench.inputs;

import io.inferbench.model.Float16;
import io.inferbench.model.TokenInputs;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * Where a generated input's values come from: a seeded distribution, a constant, or rows of a {@code .npy} file.
 * Values are drawn outside the timed region, once per prepared batch.
 */
public sealed interface ValueGenerator {

    /** How run.json and the report name it, e.g. {@code normal(0,1)} or {@code npy pixels.npy sha256 1f2e...}. */
    String label();

    /** Null when this generator can fill an input of {@code type}; otherwise why not. */
    default String unfit(ElementType type) {
        return null;
    }

    /** Normal(0, 1): float inputs. */
    record Normal() implements ValueGenerator {
        @Override
        public double next(ElementType type, SplittableRandom random) {
            return random.nextGaussian();
        }

        @Override
        public String label() {
            return "normal(0,1)";
        }

        @Override
        public String unfit(ElementType type) {
            return type.isFloat() ? null : "normal values are for float inputs; use range, ids, zeros, ones or const";
        }
    }

    /** Uniform in [0, 1): float inputs. */
    record Uniform() implements ValueGenerator {
        @Override
        public double next(ElementType type, SplittableRandom random) {
            return random.nextDouble();
        }

        @Override
        public String label() {
            return "uniform[0,1)";
        }

        @Override
        public String unfit(ElementType type) {
            return type.isFloat() ? null : "uniform values are for float inputs; use range for integers";
        }
    }

    record Zeros() implements ValueGenerator {
        @Override
        public double next(ElementType type, SplittableRandom random) {
            return 0;
        }

        @Override
        public String label() {
            return "zeros";
        }
    }

    record Ones() implements ValueGenerator {
        @Override
        public double next(ElementType type, SplittableRandom random) {
            return 1;
        }

        @Override
        public String label() {
            return "ones";
        }
    }

    /** Token ids uniform in the harness's id range (inside a 30k vocabulary, as {@link TokenInputs}): integer inputs. */
    record Ids() implements ValueGenerator {
        @Override
        public double next(ElementType type, SplittableRandom random) {
            return TokenInputs.FIRST_ID + random.nextInt(TokenInputs.ID_RANGE);
        }

        @Override
        public String label() {
            return "ids[" + TokenInputs.FIRST_ID + "," + (TokenInputs.FIRST_ID + TokenInputs.ID_RANGE - 1) + "]";
        }

        @Override
        public String unfit(ElementType type) {
            return type.isInteger() ? null : "ids are for integer inputs";
        }
    }

    record Const(double value) implements ValueGenerator {
        @Override
        public double next(ElementType type, SplittableRandom random) {
            return value;
        }

        @Override
        public String label() {
            return "const(" + (value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value)) + ")";
        }
    }

    /** Integers uniform in [low, high] inclusive; floats uniform in [low, high). */
    record Range(double low, double high) implements ValueGenerator {
        @Override
        public double next(ElementType type, SplittableRandom random) {
            return type.isFloat() ? low + random.nextDouble() * (high - low)
                    : (long) low + random.nextLong((long) high - (long) low + 1);
        }

        @Override
        public String label() {
            return "range[" + fmt(low) + "," + fmt(high) + "]";
        }

        private static String fmt(double v) {
            return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
        }

        @Override
        public String unfit(ElementType type) {
            if (!(low <= high)) {
                return "range [" + low + ", " + high + "] is empty; give [low, high] with low <= high";
            }
            if (type == ElementType.BOOL) {
                return "a range is for numbers; use const, zeros or ones for a bool input";
            }
            return null;
        }
    }

    /** Real data: rows of a {@code .npy} file, taken in turn, one row per batch row. */
    record Npy(NpyArray array) implements ValueGenerator {
        /** Npy rows are copied by {@link InputFill}, never drawn. */
        @Override
        public double next(ElementType type, SplittableRandom random) {
            throw new IllegalStateException("npy rows are copied, not drawn");
        }

        @Override
        public String label() {
            return "npy " + array.file().getFileName() + " " + array.shapeLabel() + " sha256 " + array.sha256();
        }

        @Override
        public String unfit(ElementType type) {
            return array.type() == type ? null : "the file " + array.file() + " holds " + array.type()
                    + " values, not " + type + "; save it with the input's type";
        }
    }

    /**
     * Fills {@code count} values of {@code type} into {@code out} (native order, at its position) from {@code random};
     * not for {@link Npy}, whose rows {@link InputFill} copies.
     */
    default void fill(ByteBuffer out, ElementType type, long count, SplittableRandom random) {
        for (long i = 0; i < count; i++) {
            put(out, type, next(type, random));
        }
    }

    /** The next value, as a double that {@link #put} converts to the input's type. */
    double next(ElementType type, SplittableRandom random);

    static void put(ByteBuffer out, ElementType type, double v) {
        switch (type) {
            case FLOAT32 -> out.putFloat((float) v);
            case FLOAT16 -> out.putShort(Float16.fromFloat((float) v));
            case INT64 -> out.putLong((long) v);
            case INT32 -> out.putInt((int) v);
            case BOOL -> out.put((byte) (v != 0 ? 1 : 0));
        }
    }
}
