package io.inferbench.measure;

import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;

/**
 * Histograms as text: HdrHistogram's own compressed encoding ({@code encodeIntoCompressedByteBuffer}), then
 * Base64. Any tool with HdrHistogram (Java, Python's hdrhistogram, Go, Rust) can decode it and derive any
 * percentile again. Values are nanoseconds.
 */
public final class HistogramCodec {
    private HistogramCodec() {
    }

    public static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip();
        buffer.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a Base64 compressed HdrHistogram: " + e.getMessage(), e);
        }
    }
}
