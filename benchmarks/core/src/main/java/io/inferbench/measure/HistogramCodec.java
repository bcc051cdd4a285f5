package io.inferbench.measure;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

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

    /** The p50 of an encoded histogram of nanoseconds ({@link #encode}), in milliseconds. */
    public static double p50Ms(String base64) {
        return decode(base64).getValueAtPercentile(50) / 1e6;
    }

    /**
     * Every recorded pass as one value, in ascending order: each at the highest value equivalent to its bucket (so a
     * value read back is never below the one recorded), as many times as it was counted. For resampling and replay.
     */
    public static long[] sortedValues(Histogram histogram) {
        long[] values = new long[Math.toIntExact(histogram.getTotalCount())];
        int i = 0;
        for (HistogramIterationValue recorded : histogram.recordedValues()) {
            long value = histogram.highestEquivalentValue(recorded.getValueIteratedTo());
            for (long c = 0; c < recorded.getCountAtValueIteratedTo(); c++) {
                values[i++] = value;
            }
        }
        return values;
    }
}
