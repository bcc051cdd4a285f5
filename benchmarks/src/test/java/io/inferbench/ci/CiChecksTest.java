package io.inferbench.ci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.inferbench.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code .ci/run} and its checks, read from the files: what it would find 40 minutes into a clean-clone run (a
 * documented command it does not run, a check it calls that does not exist) fails here, in {@code mvn test}.
 */
class CiChecksTest {

    private static final Pattern RUN = Pattern.compile("^run_documented [0-9,]+ '(.*)'$", Pattern.MULTILINE);
    private static final Pattern CHECK = Pattern.compile("^\\s*check ([a-z0-9-]+)", Pattern.MULTILINE);

    private static String ciRun() throws IOException {
        return Files.readString(TestPaths.ROOT.resolve(".ci/run"));
    }

    /** Each match's first group. */
    private static Set<String> found(Pattern pattern, String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(TestPaths.ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.list(TestPaths.ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    @Test
    void everyDocumentedCommandIsOneThatCiRunsVerbatimAndNoOther() throws IOException {
        Set<String> ran = found(RUN, ciRun());
        Set<String> documented = AbChecks.documented(docs());
        Set<String> missing = new TreeSet<>(documented);
        missing.removeAll(ran);
        Set<String> extra = new TreeSet<>(ran);
        extra.removeAll(documented);
        assertTrue(missing.isEmpty(), "documented in a ```bash block but not run by .ci/run (a study of hours belongs in prose): " + missing);
        assertTrue(extra.isEmpty(), "run by .ci/run but not documented: " + extra);
        assertTrue(documented.size() >= 50, "the docs' commands were found: " + documented.size());
    }

    @Test
    void everyCheckCiCallsExistsAndEveryCheckIsCalled() throws IOException {
        Set<String> called = found(CHECK, ciRun());
        assertEquals(new TreeSet<>(CiChecks.CHECKS.keySet()), called, ".ci/run calls each named check, and no other");
    }

    @Test
    void aCheckFailsNamingTheRuleAndWhatItRead(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("compare.json");
        Files.writeString(json, """
                {"regressed": false, "regressedCells": 0, "notResolved": 0, "rows": [],
                 "gate": {"decision": "no regression shown", "headline": "no regression shown in 1 cell"}}""");
        Files.writeString(dir.resolve("compare.md"), "# inferbench compare: no regression shown: 1 cell\n");
        String ok = SweepChecks.compareGate(List.of("0", json.toString()));
        assertTrue(ok.endsWith("gate: no regression shown in 1 cell; exit code 0 agrees"), ok);
        Expect.Failed wrongCode = assertThrows(Expect.Failed.class, () -> SweepChecks.compareGate(List.of("4", json.toString())));
        assertEquals("the exit code says the gate's decision: 4, no regression shown", wrongCode.getMessage());
        Files.writeString(dir.resolve("compare.md"), "# inferbench compare: undecided: 1 cell\n");
        Expect.Failed wrongPage = assertThrows(Expect.Failed.class, () -> SweepChecks.compareGate(List.of("0", json.toString())));
        assertTrue(wrongPage.getMessage().startsWith("compare.md opens with the decision: # inferbench compare: undecided"), wrongPage.getMessage());
    }

    /** The hash {@code text-service} expects, against one written out by hand for two files. */
    @Test
    void aClassFoldersHashIsEachRelativePathAndItsBytesInPathOrder(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("a"));
        Files.writeString(dir.resolve("b.class"), "B");
        Files.writeString(dir.resolve("a/c.class"), "C");
        byte[] expected = "a/c.class\0C\0b.class\0B\0".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String reference = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(expected));
        assertEquals(reference, TargetChecks.classesSha256(dir));
    }
}
