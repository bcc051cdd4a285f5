package io.inferbench.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The float16 conversion against numpy's {@code np.float32(v).astype(np.float16)}, bit for bit. */
class Float16Test {
    /** Value, then numpy's binary16 bits (computed with numpy 1.24: rounding to nearest even, subnormals, overflow). */
    private static final Object[][] NUMPY = {
        {0.0f, 0x0000}, {-0.0f, 0x8000}, {1.0f, 0x3c00}, {-2.5f, 0xc100}, {0.10000000149011612f, 0x2e66},
        {0.3333333134651184f, 0x3555}, {65504.0f, 0x7bff}, {65520.0f, 0x7c00}, {65519.98828125f, 0x7bff},
        {9.99999993922529e-09f, 0x0000}, {5.99999978589949e-08f, 0x0001}, {5.960000137861243e-08f, 0x0001},
        {2.9800000689306216e-08f, 0x0000}, {2.9802322387695312e-08f, 0x0000}, {2.980232594040899e-08f, 0x0001},
        {6.103515625e-05f, 0x0400}, {6.0999998822808266e-05f, 0x03ff}, {1.00048828125f, 0x3c00}, {1.0009765625f, 0x3c01},
        {1.00146484375f, 0x3c02}, {3.1415927410125732f, 0x4248}, {-100000.0f, 0xfc00}, {Float.POSITIVE_INFINITY, 0x7c00},
        {Float.NEGATIVE_INFINITY, 0xfc00}, {1234.5677490234375f, 0x64d3}, {0.00019999999494757503f, 0x0a8e},
        {7.499999810534064e-06f, 0x007e},
    };

    @Test
    void matchesNumpyBitForBit() {
        for (Object[] row : NUMPY) {
            float value = (Float) row[0];
            assertEquals((int) row[1], Float16.fromFloat(value) & 0xffff, "for " + value);
        }
    }

    @Test
    void everyHalfRoundTripsExactly() {
        for (int bits = 0; bits <= 0xffff; bits++) {
            float value = Float16.toFloat((short) bits);
            if (Float.isNaN(value)) {
                assertTrue(Float.isNaN(Float16.toFloat(Float16.fromFloat(value))), Integer.toHexString(bits));
                continue;
            }
            assertEquals(bits, Float16.fromFloat(value) & 0xffff, "half " + Integer.toHexString(bits) + " = " + value);
        }
    }
}
