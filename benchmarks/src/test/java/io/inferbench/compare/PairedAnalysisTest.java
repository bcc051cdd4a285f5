package io.inferbench.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.inferbench.results.AbSection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ab.json's shape and the gate's answer from cells of known change, and doubted data kept unresolved. */
class PairedAnalysisTest {
    private static AbSection.CellPairs cell(int batch, double factor, int pairs, long seed, String disturbed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<AbSection.Pair> list = new ArrayList<>();
        for (int i = 0; i < pairs; i++) {
            double machine = 1 + 0.3 * random.nextDouble(); // what both sides of the pair saw
            double a = batch * machine * (1 + 0.01 * random.nextGaussian());
            double b = batch * machine * factor * (1 + 0.01 * random.nextGaussian());
            list.add(new AbSection.Pair(i + 1, random.nextBoolean(), null, a, b, 1.5 * a, 1.5 * b * (1 + 0.01 * random.nextGaussian()),
                    1000L * i, false));
        }
        return new AbSection.CellPairs("onnxruntime/cpu/tiny/seq64/batch" + batch, "onnxruntime", "cpu", "tiny", 64, batch, list,
                disturbed, null, "answer known");
    }

    @Test
    void aTenPercentSlowerCellFailsTheGateAndTheOthersAreWithin(@TempDir Path dir) throws IOException {
        PairedAnalysis.AbResult r = PairedAnalysis.analyse(List.of(cell(1, 1.0, 16, 1, null), cell(4, 1.10, 16, 2, null),
                cell(8, 1.0, 16, 3, null)), 0.95, 5);
        assertTrue(r.regressed());
        assertEquals(6, r.intervals());
        assertEquals(1 - 0.05 / 6, r.intervalConfidenceLevel(), 1e-12, "Bonferroni over 3 cells and 2 percentiles");
        assertEquals(PairedVerdict.WITHIN, r.cells().get(0).p50().verdict(), r.cells().get(0).toString());
        assertTrue(r.cells().get(1).p50().regression(), r.cells().get(1).toString());
        assertEquals(PairedVerdict.WITHIN, r.cells().get(2).p50().verdict());

        PairedAnalysis.write(r, List.of("A: main (model sha256 aaaa), B: the pull request (model sha256 bbbb)"), List.of(), dir);
        JsonNode json = new ObjectMapper().readTree(dir.resolve(PairedAnalysis.JSON_FILE).toFile());
        assertTrue(json.path("regressed").asBoolean());
        JsonNode c = json.path("cells").get(1);
        assertEquals("onnxruntime", c.path("backend").asText());
        assertEquals(64, c.path("seqLen").asInt());
        assertEquals(4, c.path("batch").asInt());
        for (String p : List.of("p50", "p99")) {
            for (String field : List.of("changePercent", "ciLowPercent", "ciHighPercent", "verdict", "regression", "detectablePercent")) {
                assertFalse(c.path(p).path(field).isMissingNode(), p + "." + field);
            }
        }
        assertEquals("slower", c.path("p50").path("verdict").asText());

        List<String> md = Files.readAllLines(dir.resolve(PairedAnalysis.MARKDOWN_FILE));
        int table = md.indexOf(md.stream().filter(l -> l.startsWith("| backend")).findFirst().orElseThrow());
        assertTrue(table < 25, "at most a screenful before the table: " + table);
        assertTrue(md.get(2).startsWith("**REGRESSED**: 1 of 3 cells a regression"), md.get(2));
        assertFalse(String.join("\n", md).contains("Cell["), "no record's toString in a file for people");
    }

    @Test
    void aDisturbedCellIsUnresolvedUnlessItsPairsProveAChange() {
        PairedAnalysis.AbResult r = PairedAnalysis.analyse(List.of(cell(1, 1.0, 16, 4, "measurements set aside: others took 35% of the machine"),
                cell(2, 1.10, 16, 5, "kept disturbed after 3 tries")), 0.95, 5);
        PairedAnalysis.Cell quiet = r.cells().get(0);
        assertEquals(PairedVerdict.UNRESOLVED, quiet.p50().verdict());
        assertTrue(quiet.note().startsWith("p50 and p99 unresolved: measurements set aside"), quiet.note());
        PairedAnalysis.Cell proven = r.cells().get(1);
        assertEquals(PairedVerdict.SLOWER, proven.p50().verdict(), "the pairs still prove it");
        assertTrue(proven.p50().regression());
        assertNull(proven.note());
        assertTrue(r.regressed());
    }

    @Test
    void aFailedSubjectEndsItsCellsPairsAndIsNamedInAbMd(@TempDir Path dir) throws IOException {
        AbSection.CellPairs failed = new AbSection.CellPairs("onnxruntime/cpu/tiny/seq64/batch8", "onnxruntime", "cpu", "tiny",
                64, 8, List.of(), null, "B failed: the model server went away at batch 8", "pair 1: B failed");
        PairedAnalysis.AbResult r = PairedAnalysis.analyse(List.of(cell(1, 1.0, 16, 7, null), failed), 0.95, 5);
        assertFalse(r.regressed());
        assertNull(r.cells().get(1).p50());
        PairedAnalysis.write(r, List.of("A/A"), List.of(), dir);
        String md = Files.readString(dir.resolve(PairedAnalysis.MARKDOWN_FILE));
        assertTrue(md.contains("1 FAILED"), md);
        assertTrue(md.contains("FAILED: B failed: the model server went away at batch 8"), md);
    }

    @Test
    void aFirstPairsAnswerIsWrittenBeforeTheIntervalsExist(@TempDir Path dir) throws IOException {
        PairedAnalysis.AbResult r = PairedAnalysis.analyse(List.of(cell(1, 1.2, 2, 6, null)), 0.95, 5);
        assertFalse(r.regressed(), "two pairs cannot prove a regression");
        assertEquals(PairedVerdict.UNRESOLVED, r.cells().get(0).p50().verdict());
        PairedAnalysis.write(r, List.of("A/A: the same subject twice"), List.of(), dir);
        assertTrue(Files.readString(dir.resolve(PairedAnalysis.MARKDOWN_FILE)).contains("[too few pairs]"));
    }
}
