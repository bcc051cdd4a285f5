package io.inferbench.engine;

import io.inferbench.BenchmarkException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The SHA-256 of a user's code ({@link UserCode#classpath}): a jar's bytes; a folder's regular files, each one's path
 * relative to the folder and its bytes, in path order, so the same classes built in another folder hash the same and a
 * changed class hashes differently. What {@code compare} holds two runs of a target against.
 */
public final class CodeHash {
    private CodeHash() {
    }

    /** The hash of one entry: a file's bytes, or a folder's files. */
    public static String of(Path entry) {
        MessageDigest digest = sha256();
        try {
            if (Files.isDirectory(entry)) {
                List<Path> files;
                try (Stream<Path> walk = Files.walk(entry)) {
                    files = walk.filter(Files::isRegularFile).sorted().toList();
                }
                for (Path file : files) {
                    digest.update(entry.relativize(file).toString().replace('\\', '/').getBytes(StandardCharsets.UTF_8));
                    digest.update((byte) 0);
                    update(digest, file);
                    digest.update((byte) 0);
                }
            } else {
                update(digest, entry);
            }
        } catch (IOException e) {
            throw new BenchmarkException("Could not read " + entry + " to hash the target's code: " + e.getMessage(), e);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** The hash of several entries' hashes, in order. */
    public static String ofAll(List<String> hashes) {
        MessageDigest digest = sha256();
        hashes.forEach(h -> digest.update(h.getBytes(StandardCharsets.US_ASCII)));
        return HexFormat.of().formatHex(digest.digest());
    }

    private static void update(MessageDigest digest, Path file) throws IOException {
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                digest.update(buffer, 0, n);
            }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
