package io.inferbench.model;

/**
 * IEEE 754 binary16 from float32, rounded to nearest, ties to even (as numpy's {@code astype(float16)} and
 * {@code Float.floatToFloat16} in Java 20+ do): subnormal halves are kept, overflow becomes infinity, NaN stays NaN.
 * Java 17 has no such conversion, and the engines' own helpers stay inside {@code backend/}.
 */
public final class Float16 {
    private Float16() {
    }

    /** The binary16 bits of {@code value}, in the low 16 bits of the result. */
    public static short fromFloat(float value) {
        int bits = Float.floatToRawIntBits(value);
        int sign = (bits >>> 16) & 0x8000;
        int exponent = (bits >>> 23) & 0xff;
        int mantissa = bits & 0x7fffff;
        if (exponent == 0xff) {
            return (short) (sign | 0x7c00 | (mantissa != 0 ? 0x200 | (mantissa >>> 13) : 0));
        }
        int e = exponent - 127 + 15;
        if (e >= 0x1f) {
            return (short) (sign | 0x7c00);
        }
        if (e <= 0) {
            if (e < -10) {
                return (short) sign; // below half the smallest subnormal: rounds to zero
            }
            int m = mantissa | 0x800000; // the implicit bit
            int shift = 14 - e;          // to the subnormal's 10 bits
            int half = m >>> shift;
            int rest = m & ((1 << shift) - 1);
            int midpoint = 1 << (shift - 1);
            if (rest > midpoint || (rest == midpoint && (half & 1) == 1)) {
                half++;
            }
            return (short) (sign | half);
        }
        int half = (e << 10) | (mantissa >>> 13);
        int rest = mantissa & 0x1fff;
        if (rest > 0x1000 || (rest == 0x1000 && (half & 1) == 1)) {
            half++; // may carry into the exponent, up to infinity, which is the right answer
        }
        return (short) (sign | half);
    }

    /** The float32 value of binary16 {@code bits} (exact: every half is a float). */
    public static float toFloat(short bits) {
        int h = bits & 0xffff;
        int sign = (h & 0x8000) << 16;
        int exponent = (h >>> 10) & 0x1f;
        int mantissa = h & 0x3ff;
        if (exponent == 0x1f) {
            return Float.intBitsToFloat(sign | 0x7f800000 | (mantissa << 13));
        }
        if (exponent == 0) {
            float magnitude = mantissa * 0x1p-24f;
            return sign == 0 ? magnitude : -magnitude;
        }
        return Float.intBitsToFloat(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
    }
}
