package io.inferbench.workload;

import io.inferbench.BenchmarkException;
import io.inferbench.model.ModelResolver;

import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 of a workload's files, so a run says exactly which text and which tokenizer it measured. */
final class Sha256 {
    private Sha256() {
    }

    static String of(Path file) {
        try {
            return ModelResolver.sha256(file);
        } catch (IOException e) {
            throw new BenchmarkException("Could not read " + file + " to hash it: " + e.getMessage(), e);
        }
    }

    static String of(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM provides SHA-256", e);
        }
    }
}
