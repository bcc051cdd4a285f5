package io.inferbench.probe;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Small reads and writes of Linux's {@code /proc} files that stay cheap while their code is still interpreted.
 *
 * <p><b>Why not {@code Files.readString}.</b> The probes read {@code /proc} a few times per cell (before and after each
 * measurement, and while waiting for the compilers), never often enough for the JIT to compile what they run, so it runs
 * in the interpreter. There NIO's path and channel layers and a regex split cost several times what a
 * {@link FileInputStream} read into a byte array and a hand split cost, most of which is the kernel's (docs/findings.md,
 * "Reading /proc while interpreted"). Each such millisecond sits just before or after a measurement, or in the wait
 * before it: sweep time that measures nothing, paid hundreds of times in a default sweep.
 */
final class ProcFiles {
    /** Larger than any file read here ({@code /proc/self/status}: about 1.5 KB); a longer one is cut at this length. */
    static final int MAX_BYTES = 16 * 1024;

    private ProcFiles() {
    }

    /** The file's text (UTF-8), at most {@link #MAX_BYTES}; null where it cannot be read. */
    static String read(String path) {
        byte[] buffer = new byte[MAX_BYTES];
        try (FileInputStream in = new FileInputStream(path)) {
            int length = 0;
            int read;
            while (length < buffer.length && (read = in.read(buffer, length, buffer.length - length)) > 0) {
                length += read;
            }
            return new String(buffer, 0, length, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }

    /** Writes {@code text} to the file; false where it cannot be written. */
    static boolean write(String path, String text) {
        try (FileOutputStream out = new FileOutputStream(path)) {
            out.write(text.getBytes(StandardCharsets.US_ASCII));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The names in a directory; null where it cannot be listed. */
    static String[] list(String dir) {
        return new File(dir).list();
    }

    /** The fields of {@code text} between runs of spaces, tabs and newlines, without a regex. */
    static List<String> fields(String text) {
        List<String> fields = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= text.length(); i++) {
            boolean blank = i == text.length() || Character.isWhitespace(text.charAt(i));
            if (blank && start >= 0) {
                fields.add(text.substring(start, i));
                start = -1;
            } else if (!blank && start < 0) {
                start = i;
            }
        }
        return fields;
    }
}
