package io.inferbench.inputs;

import io.inferbench.BenchmarkException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The .npy reader against files written byte by byte as NumPy's format 1.0 lays them out. */
class NpyArrayTest {
    @TempDir
    Path dir;

    /** A format 1.0 file: magic, version, header length, the header dict padded to 64 bytes with a newline, the data. */
    static byte[] npy(String descr, int[] shape, float[] values) {
        StringBuilder dims = new StringBuilder();
        for (int d : shape) {
            dims.append(d).append(", ");
        }
        String header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims.toString().trim() + "), }";
        int pad = (64 - (10 + header.length() + 1) % 64) % 64;
        header = header + " ".repeat(pad) + "\n";
        ByteBuffer out = ByteBuffer.allocate(10 + header.length() + values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        out.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short) header.length());
        out.put(header.getBytes(StandardCharsets.ISO_8859_1));
        for (float v : values) {
            out.putFloat(v);
        }
        return out.array();
    }

    @Test
    void readsShapeTypeAndRows() throws IOException {
        Path file = dir.resolve("a.npy");
        Files.write(file, npy("<f4", new int[] {2, 3}, new float[] {1, 2, 3, 4, 5, 6}));
        NpyArray array = NpyArray.read(file, "x");
        assertEquals(ElementType.FLOAT32, array.type());
        assertEquals(List.of(2L, 3L), array.shape());
        assertEquals(List.of(3L), array.rowShape());
        ByteBuffer out = ByteBuffer.allocate(12).order(ByteOrder.nativeOrder());
        array.copyRows(1, 1, out);
        out.flip();
        assertEquals(4f, out.getFloat());
        assertEquals(64, array.sha256().length());
    }

    @Test
    void refusesWhatItCannotRead() throws IOException {
        Path notNpy = dir.resolve("b.npy");
        Files.writeString(notNpy, "hello, this is not numpy");
        assertTrue(assertThrows(BenchmarkException.class, () -> NpyArray.read(notNpy, "x")).getMessage().contains("not a .npy file"));
        Path doubles = dir.resolve("c.npy");
        Files.write(doubles, npy("<f8", new int[] {1}, new float[] {1, 2}));
        assertTrue(assertThrows(BenchmarkException.class, () -> NpyArray.read(doubles, "x")).getMessage().contains("dtype '<f8'"));
        Path truncated = dir.resolve("d.npy");
        Files.write(truncated, npy("<f4", new int[] {2, 3}, new float[] {1, 2, 3}));
        assertTrue(assertThrows(BenchmarkException.class, () -> NpyArray.read(truncated, "x")).getMessage().contains("corrupt"));
        assertTrue(assertThrows(BenchmarkException.class, () -> NpyArray.read(dir.resolve("missing.npy"), "x")).getMessage()
                .contains("cannot be read"));
    }
}
