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
                cell(8, 1.0, 16, 3, null)), 0.95, 5, 0);
        assertTrue(r.regressed());
        assertEquals(6, r.intervals());
        assertEquals(1 - 0.05 / 6, r.intervalConfidenceLevel(), 1e-12, "Bonferroni over 3 cells and 2 percentiles");
        assertEquals(PairedVerdict.WITHIN, r.cells().get(0).p50().verdict(), r.cells().get(0).toString());
        assertTrue(r.cells().get(1).p50().regression(), r.cells().get(1).toString());
        assertEquals(PairedVerdict.WITHIN, r.cells().get(2).p50().verdict());

        AbReport.write(r, List.of("A: main (model sha256 aaaa), B: the pull request (model sha256 bbbb)"), List.of(), dir);
        JsonNode json = new ObjectMapper().readTree(dir.resolve(AbReport.JSON_FILE).toFile());
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

        List<String> md = Files.readAllLines(dir.resolve(AbReport.MARKDOWN_FILE));
        int table = md.indexOf(md.stream().filter(l -> l.startsWith("| backend")).findFirst().orElseThrow());
        assertTrue(table < 25, "at most a screenful before the table: " + table);
        assertEquals("# inferbench A/B: regression: 1 regression, 2 no regression shown, 0 undecided of 3 cell(s)", md.get(0));
        assertTrue(md.get(2).startsWith("**REGRESSION**: 1 of 3 cells a regression"), md.get(2));
        assertFalse(String.join("\n", md).contains("Cell["), "no record's toString in a file for people");
    }

    @Test
    void aDisturbedCellIsUnresolvedUnlessItsPairsProveAChange() {
        PairedAnalysis.AbResult r = PairedAnalysis.analyse(List.of(cell(1, 1.0, 16, 4, "measurements set aside: others took 35% of the machine"),
                cell(2, 1.10, 16, 5, "kept disturbed after 3 tries")), 0.95, 5, 0);
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
        PairedAnalysis.AbResult r = PairedAnalysis.analyse(List.of(cell(1, 1.0, 16, 7, null), failed), 0.95, 5, 0);
        assertFalse(r.regressed());
        assertNull(r.cells().get(1).p50());
        AbReport.write(r, List.of("A/A"), List.of(), dir);
        String md = Files.readString(dir.resolve(AbReport.MARKDOWN_FILE));
        assertTrue(md.contains("1 FAILED"), md);
        assertTrue(md.contains("FAILED: B failed: the model server went away at batch 8"), md);
    }

    @Test
    void aFirstPairsAnswerIsWrittenBeforeTheIntervalsExist(@TempDir Path dir) throws IOException {
        PairedAnalysis.AbResult r = PairedAnalysis.analyse(List.of(cell(1, 1.2, 2, 6, null)), 0.95, 5, 0);
        assertFalse(r.regressed(), "two pairs cannot prove a regression");
        assertEquals(PairedVerdict.UNRESOLVED, r.cells().get(0).p50().verdict());
        AbReport.write(r, List.of("A/A: the same subject twice"), List.of(), dir);
        assertTrue(Files.readString(dir.resolve(AbReport.MARKDOWN_FILE)).contains("[too few pairs]"));
    }

    /** One pair of a tenfold slowdown: no interval, so neither a regression nor a pass; ab.md says what would decide it. */
    @Test
    void onePairOfATenfoldSlowdownIsUndecidedNeverAPass(@TempDir Path dir) throws IOException {
        PairedAnalysis.AbResult r = PairedAnalysis.analyse(List.of(cell(1, 10.0, 1, 8, null)), 0.95, 5, 0, false, "time cap");
        assertFalse(r.regressed(), "one pair proves nothing");
        assertEquals(GateDecision.UNDECIDED, r.decision());
        CellGate gate = r.cells().get(0).gate();
        assertEquals(GateDecision.UNDECIDED, gate.decision());
        assertEquals("p50 has no interval after 1 pair(s); one needs 7", gate.reason(), "97.5% each over 2 intervals");
        assertEquals(6, gate.moreToDecide());
        AbReport.write(r, List.of("A/B"), List.of(), dir);
        List<String> md = Files.readAllLines(dir.resolve(AbReport.MARKDOWN_FILE));
        assertEquals("# inferbench A/B: undecided: 0 regression, 0 no regression shown, 1 undecided of 1 cell(s)", md.get(0));
        assertFalse(String.join("\n", md).contains("No regression"), "never said of an undecided run");
        assertTrue(String.join("\n", md).contains("about 6 more pair(s)"), String.join("\n", md));
    }

    /** An interval wide on the fast side is no `within`, yet rules a 5% regression out: the gate passes it. */
    @Test
    void anIntervalWhollyBelowTheThresholdPassesThoughItsVerdictIsUnresolved() {
        List<AbSection.Pair> pairs = new ArrayList<>();
        double[] ratios = {0.80, 0.90, 1.02, 0.95, 1.03, 0.88, 1.01, 0.97, 0.92, 1.04};
        for (int i = 0; i < ratios.length; i++) {
            pairs.add(new AbSection.Pair(i + 1, null, null, 1.0, ratios[i], 2.0, 2 * ratios[i], 1000L * (i + 1), false));
        }
        PairedAnalysis.AbResult r = PairedAnalysis.analyse(List.of(new AbSection.CellPairs("c", "onnxruntime", "cpu", "tiny", 64,
                1, pairs, null, null, "answer known")), 0.95, 5, 0, false, "answer known");
        PairedAnalysis.Cell c = r.cells().get(0);
        assertEquals(PairedVerdict.UNRESOLVED, c.p50().verdict(), "it reaches past -5%: " + c.p50());
        assertTrue(c.p50().ciHighPercent() < 5, c.p50().toString());
        assertEquals(GateDecision.NO_REGRESSION, c.gate().decision(), c.gate().toString());
        assertTrue(c.gate().reason().startsWith("p50: no regression of 5% or more (interval ["), c.gate().reason());
        assertEquals(GateDecision.NO_REGRESSION, r.decision());
        assertTrue(r.headline().startsWith("no regression shown: 0 regression, 1 no regression shown"), r.headline());
    }

    /**
     * A pair whose fork was kept disturbed has no say in a pass: the interval is taken again over the others. With too
     * few others the cell stays undecided; with enough, it passes on them.
     */
    @Test
    void pairsWithAForkKeptDisturbedHaveNoSayInAPass() {
        AbSection.CellPairs quiet = cell(1, 1.0, 16, 9, null);
        List<AbSection.Pair> marked = new ArrayList<>();
        for (AbSection.Pair p : quiet.pairs()) {
            boolean kept = p.pair() % 2 == 0; // every other pair: 8 clean of 16
            double disturbed = p.pair() % 4 == 0 ? 1.3 : 0.7; // a disturbed side, either way
            marked.add(new AbSection.Pair(p.pair(), p.bFirst(), p.bCpus(), p.aP50Ms(), kept ? p.bP50Ms() * disturbed : p.bP50Ms(),
                    p.aP99Ms(), p.bP99Ms(), p.endedAtMs(), kept, kept));
        }
        AbSection.CellPairs half = new AbSection.CellPairs(quiet.id(), "onnxruntime", "cpu", "tiny", 64, 1, marked,
                "8 of 16 pairs doubted", null, null);
        CellGate gate = PairedAnalysis.analyse(List.of(half), 0.95, 5, 0).cells().get(0).gate();
        assertEquals(GateDecision.NO_REGRESSION, gate.decision(), gate.toString());
        assertTrue(gate.reason().endsWith("from its 8 pair(s) with no fork kept disturbed"), gate.reason());

        List<AbSection.Pair> mostly = new ArrayList<>();
        for (AbSection.Pair p : marked) {
            boolean kept = p.pair() > 3;
            mostly.add(new AbSection.Pair(p.pair(), p.bFirst(), p.bCpus(), p.aP50Ms(), p.bP50Ms(), p.aP99Ms(), p.bP99Ms(),
                    p.endedAtMs(), kept, kept));
        }
        CellGate few = PairedAnalysis.analyse(List.of(new AbSection.CellPairs(quiet.id(), "onnxruntime", "cpu", "tiny", 64, 1,
                mostly, "13 of 16 pairs doubted", null, null)), 0.95, 5, 0).cells().get(0).gate();
        assertEquals(GateDecision.UNDECIDED, few.decision(), few.toString());
        assertEquals("p50 has no interval from its 3 pair(s) with no fork kept disturbed; one needs 7", few.reason());
    }

    /** A run ended before its pairs did says so first, and nothing in it passes. */
    @Test
    void aStoppedRunSaysItStoppedAndPassesNothing(@TempDir Path dir) throws IOException {
        PairedAnalysis.AbResult sofar = PairedAnalysis.analyse(List.of(cell(1, 1.0, 16, 10, null), cell(2, 1.0, 3, 11, null)),
                0.95, 5, 0, false, null);
        assertEquals(GateDecision.UNDECIDED, sofar.decision(), "the pairs go on: nothing is a pass yet");
        PairedAnalysis.AbResult stopped = sofar.stoppedBy("the run was ended (SIGTERM) before its pairs did");
        AbReport.write(stopped, List.of("A/A"), List.of(), dir);
        List<String> md = Files.readAllLines(dir.resolve(AbReport.MARKDOWN_FILE));
        assertEquals("# inferbench A/B: stopped after 16 pair(s), undecided: 0 regression, 1 no regression shown, 1 undecided of "
                + "2 cell(s)", md.get(0));
        assertTrue(md.get(2).contains("the run was ended (SIGTERM) before its pairs did; 1 cell(s) left undecided"), md.get(2));
    }
}
