package io.inferbench.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How large the arrays of a memory-bandwidth measure must be for every pass to stream from memory rather than a cache:
 * two arrays together at least {@value #LLC_MULTIPLE} times the last-level cache the machine reports, each at least
 * {@value #MIN_ARRAY_MIB} MiB. The machine's own roof ({@code io.inferbench.roofline.MachineBandwidth}) and each engine's
 * bandwidth kernel size their arrays by it, so that the two figures measure the same memory.
 */
public final class StreamArrays {
    /** The two arrays together are at least this many times the last-level cache. */
    public static final int LLC_MULTIPLE = 4;
    static final int MIN_ARRAY_MIB = 256;
    /** The last-level cache assumed where the machine does not say: 64 MiB. */
    static final long DEFAULT_LLC_BYTES = 64L << 20;

    private StreamArrays() {
    }

    /** The bytes each of two arrays should hold on this machine. */
    public static long arrayBytes() {
        return arrayBytes(lastLevelCacheBytes());
    }

    static long arrayBytes(long llcBytes) {
        return Math.max((long) MIN_ARRAY_MIB << 20, LLC_MULTIPLE * llcBytes / 2);
    }

    /** The largest cache the machine lists for its first CPU (its last level), or {@link #DEFAULT_LLC_BYTES}. */
    public static long lastLevelCacheBytes() {
        return lastLevelCacheBytes(Path.of("/sys/devices/system/cpu/cpu0/cache"));
    }

    static long lastLevelCacheBytes(Path cacheDir) {
        long largest = -1;
        try (var entries = Files.list(cacheDir)) {
            for (Path index : entries.filter(p -> p.getFileName().toString().startsWith("index")).toList()) {
                Path size = index.resolve("size");
                if (Files.isReadable(size)) {
                    largest = Math.max(largest, parseSize(Files.readString(size).strip()));
                }
            }
        } catch (IOException | RuntimeException e) {
            return DEFAULT_LLC_BYTES;
        }
        return largest > 0 ? largest : DEFAULT_LLC_BYTES;
    }

    /** {@code 491520K}, {@code 32M}, {@code 1024}: bytes. */
    static long parseSize(String text) {
        String t = text.toUpperCase(Locale.ROOT);
        long unit = t.endsWith("K") ? 1024L : t.endsWith("M") ? 1024L * 1024 : t.endsWith("G") ? 1024L * 1024 * 1024 : 1;
        return Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1)) * unit;
    }
}
