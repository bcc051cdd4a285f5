package io.inferbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.inferbench.results.AbSection;
import io.inferbench.engine.TestModels;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.InProcessForkExecutor;
import io.inferbench.TestPaths;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An A/B run as a user runs it ({@code -Dbench.ab.baseline}), its fork JVMs in-process: two builds of a user's target,
 * compiled outside the build, whose calls spin known lengths, so that B's change against A is known: none (A/A), 50%
 * slower, or a cell that fails in B only. And the subjects and settings an A/B run refuses before measuring. Two
 * builds in one fork JVM ({@code passes}) and what keeps them apart are {@link AbPassesTargetTest}'s.
 */
class AbRunTest {
    @TempDir
    Path dir;

    private AbRuns runs;

    @BeforeEach
    void fixture() {
        runs = new AbRuns(dir);
    }

    @Test
    void anAaRunIsNamedAsSuchFindsNoChangeAndKeepsEveryPair() throws Exception {
        Path code = runs.build("main", "60", "0");
        AbRuns.Ran ran = runs.run(runs.ab(code, code));
        assertEquals(0, ran.code(), ran.console());
        assertTrue(ran.console().contains("an A/A run"), ran.console());
        JsonNode section = ran.run().path("ab");
        assertTrue(section.path("sameSubject").asBoolean());
        assertEquals(0, section.path("differences").size());
        assertEquals(2, section.path("subjects").size());
        assertEquals("baseline/run.json", section.path("subjects").get(0).path("runFile").asText());
        assertEquals(3, section.path("baselineCells").size(), "A's cells are kept in B's run file");
        assertTrue(Files.isRegularFile(ran.runDir().resolve("baseline/run.json")), "and in A's own");
        List<String> stages = new ArrayList<>();
        ran.run().path("stages").forEach(st -> stages.add(st.path("name").asText() + " " + st.path("status").asText()));
        assertTrue(stages.containsAll(List.of("preflight ok", "sweep ok", "analysis ok", "resources ok")), stages.toString());
        assertEquals(1, ran.run().path("fits").size(), "B's batch-scaling fit: " + ran.run().path("fits"));
        assertFalse(ran.ab().path("regressed").asBoolean());
        // The p50, which the gate reads: no change. Not the p99: with 8 pairs each pair's p99 is near its maximum, and a
        // family-wise 95% allows a false verdict in one A/A run in 20 (beside a second test JVM, one read "faster",
        // -59% [-92, -3.5], where its p50 read -0.03% [-0.26, +0.05]); the gate never reads it.
        for (JsonNode cell : ran.ab().path("cells")) {
            String verdict = cell.path("p50").path("verdict").asText();
            assertFalse(verdict.equals("slower") || verdict.equals("faster"), "no change between A and A: " + cell);
            assertFalse(cell.path("gate").path("decision").asText().startsWith("regression"), "A/A fails no gate: " + cell);
        }
        for (int i = 0; i < 3; i++) {
            JsonNode pairs = section.path("cells").get(i).path("pairs");
            assertEquals(ran.ab().path("cells").get(i).path("pairs").asInt(), pairs.size(), "run.json holds every pair ab.json used");
            List<Integer> numbers = new ArrayList<>();
            pairs.forEach(pair -> numbers.add(pair.path("pair").asInt()));
            assertEquals(numbers.stream().sorted().distinct().toList(), numbers, "pairs in time order");
        }
        String md = Files.readString(ran.runDir().resolve("ab.md"));
        assertTrue(md.contains("**A/A run**"), md);
        assertTrue(md.contains("ab-pairs.png") && md.contains("ab-batch-"), "the per-pair plot and the batch-scaling chart: " + md);
        assertFalse(md.contains("TargetCode[") || md.contains("CodeEntry["), "no record's toString in a file for people");
        Gated gate = gate(ran.runDir());
        assertEquals(0, gate.code(), gate.console());
        assertTrue(gate.console().contains("no regression of B against A shown (an A/A run)"), gate.console());
        assertTrue(md.startsWith("# inferbench A/B: no regression shown: 0 regression, 3 no regression shown, 0 undecided"), md);
    }

    private record Gated(int code, String console) {
    }

    /** When each fork ran, by its plan's round: what a duet's pairs are checked against. */
    private record Span(int round, long startNs, long endNs) {
    }

    /**
     * A duet: each pair's A and B forks run at the same time, on halves of the cores drawn per pair, each with half the
     * cores' threads; the run names its mode and each pair's cores. (The forks here run in this JVM, which cannot pin
     * them; DuetCpusTest checks the pinned command line.)
     */
    @Test
    void aDuetRunsEachPairsForksAtTheSameTimeOnHalvesOfTheCores() throws Exception {
        Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "a duet needs 2 cores");
        Path code = runs.build("main", "60", "0");
        Properties p = runs.ab(code, code);
        p.remove("bench.threads");
        p.setProperty("bench.ab.mode", "duet");
        p.setProperty("bench.ab.maxPairs", "6");
        List<Span> spans = java.util.Collections.synchronizedList(new ArrayList<>());
        // The fork's cells driven directly (the JMH benchmark hands its session through a static, one fork at a time).
        InProcessForkExecutor inner = new InProcessForkExecutor(fork -> {
            for (io.inferbench.runner.Cell cell : fork.plan().cellsInOrder()) {
                io.inferbench.runner.CellTrial trial = fork.beginCell(cell.seqLen(), cell.batch());
                trial.run(io.inferbench.measure.PassRecorder.Phase.WARMUP);
                trial.run(io.inferbench.measure.PassRecorder.Phase.MEASUREMENT);
                trial.end(null);
            }
        }, AbRuns.QUIET);
        ForkExecutor timed = (plan, planFile, log, listener) -> {
            long start = System.nanoTime();
            try {
                return inner.run(plan, planFile, log, listener);
            } finally {
                spans.add(new Span(plan.round(), start, System.nanoTime()));
            }
        };
        AbRuns.Ran ran = runs.run(p, timed);
        assertEquals(4, ran.code(), "6 pairs give no interval at 99.2% (one needs 8): undecided, never a pass: "
                + ran.console());
        assertTrue(ran.console().contains("p50 has no interval after 6 pair(s); one needs 8; about 2 more pair(s)"),
                ran.console());
        JsonNode section = ran.run().path("ab");
        assertEquals("undecided", section.path("decision").asText());
        assertEquals("duet", section.path("mode").asText());
        int half = Runtime.getRuntime().availableProcessors() / 2;
        assertEquals(half, ran.run().path("config").path("intraOpThreads").asInt(),
                "each fork gets half the cores' threads: " + ran.run().path("config"));
        java.util.Set<String> cores = new java.util.TreeSet<>();
        for (JsonNode pair : section.path("cells").get(0).path("pairs")) {
            assertTrue(pair.path("bFirst").isMissingNode() || pair.path("bFirst").isNull(), "no order in a duet: " + pair);
            cores.add(pair.path("bCpus").asText());
            int round = pair.path("pair").asInt();
            // The pair's two forks: its round's last two (the preflight's probes of both subjects come first, in round 1).
            List<Span> all = spans.stream().filter(sp -> sp.round() == round)
                    .sorted(java.util.Comparator.comparingLong(Span::startNs)).toList();
            List<Span> forks = all.subList(Math.max(0, all.size() - 2), all.size());
            assertEquals(2, forks.size(), "A's fork and B's of pair " + round + ": " + all);
            assertTrue(forks.get(0).startNs() < forks.get(1).endNs() && forks.get(1).startNs() < forks.get(0).endNs(),
                    "pair " + round + "'s forks overlap in time: " + forks);
        }
        assertFalse(cores.isEmpty() || cores.contains(""), "each pair names B's cores: " + cores);
        assertTrue(ran.console().contains("at the same time (a duet)"), ran.console());
        assertTrue(Files.readString(ran.runDir().resolve("ab.md")).contains("at the same time (a duet)"));
    }

    /** A duet's threads beyond its half of the cores, and a mode that does not exist, are refused before measuring. */
    @Test
    void aDuetRefusesMoreThreadsThanItsHalfAndAnUnknownMode() throws Exception {
        Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "a duet needs 2 cores");
        Path code = runs.build("main", "60", "0");
        Properties p = runs.ab(code, code);
        p.setProperty("bench.ab.mode", "duet");
        p.setProperty("bench.threads", Integer.toString(Runtime.getRuntime().availableProcessors()));
        AbRuns.Ran ran = runs.run(p);
        assertEquals(2, ran.code(), ran.console());
        assertTrue(ran.console().contains("more threads than its half of the cores in a duet"), ran.console());
        assertTrue(ran.run() == null, "nothing was measured or written");

        p.setProperty("bench.ab.mode", "together");
        ran = runs.run(p);
        assertEquals(2, ran.code(), ran.console());
        assertTrue(ran.console().contains("-Dbench.ab.mode is auto"), ran.console());
    }

    private Gated gate(Path runDir) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(sink, true, StandardCharsets.UTF_8);
        Properties p = new Properties();
        p.setProperty("gate.run", runDir.toString());
        int code = InferbenchMain.run(new String[]{"gate"}, p, out, out, options -> new InProcessForkExecutor()).code();
        return new Gated(code, sink.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aSlowerBIsARegressionWithExitCodeOneAndWhatDiffersIsNamed() throws Exception {
        AbRuns.Ran ran = runs.run(runs.ab(runs.build("main", "60", "0"), runs.build("pr", "120", "0")));
        assertEquals(1, ran.code(), ran.console());
        assertTrue(ran.ab().path("regressed").asBoolean());
        assertTrue(ran.run().path("ab").path("regressed").asBoolean());
        JsonNode differences = ran.run().path("ab").path("differences");
        assertEquals(1, differences.size(), differences.toString());
        assertTrue(differences.get(0).asText().startsWith("code of " + AbRuns.TARGET), differences.toString());
        for (JsonNode cell : ran.ab().path("cells")) {
            JsonNode p50 = cell.path("p50");
            assertEquals("slower", p50.path("verdict").asText(), cell.toString());
            assertTrue(p50.path("regression").asBoolean(), cell.toString());
            assertTrue(p50.path("ciLowPercent").asDouble() > 5, cell.toString());
            assertTrue(cell.path("stop").asText().startsWith("decided after"), cell.toString());
            assertTrue(cell.path("pairs").asInt() < 12, "a clear difference stops in a few pairs: " + cell);
        }
        String md = Files.readString(ran.runDir().resolve("ab.md"));
        assertTrue(md.startsWith("# inferbench A/B: regression: 3 regression, 0 no regression shown, 0 undecided of 3 cell(s)")
                && md.contains("**REGRESSION**"), md);
        Gated gate = gate(ran.runDir());
        assertEquals(1, gate.code(), gate.console());
        assertTrue(gate.console().contains("B is a regression against A"), gate.console());
    }

    /** One pair of a tenfold slowdown cannot decide anything: undecided, exit code 4, and the gate fails it. */
    @Test
    void onePairOfATenfoldSlowdownIsUndecidedAndFailsTheGate() throws Exception {
        Properties p = runs.ab(runs.build("main", "60", "0"), runs.build("pr", "600", "0"));
        p.setProperty("bench.ab.maxPairs", "1");
        AbRuns.Ran ran = runs.run(p);
        assertEquals(4, ran.code(), ran.console());
        assertEquals("undecided", ran.run().path("ab").path("decision").asText());
        assertFalse(ran.ab().path("regressed").asBoolean(), "one pair proves no regression");
        String md = Files.readString(ran.runDir().resolve("ab.md"));
        assertTrue(md.startsWith("# inferbench A/B: undecided: 0 regression, 0 no regression shown, 3 undecided of 3 cell(s)"), md);
        assertFalse(md.contains("No regression") || ran.console().contains("no regression:"), md);
        assertTrue(md.contains("p50 has no interval after 1 pair(s); one needs 8") && md.contains("about 7 more pair(s)"), md);
        Gated gate = gate(ran.runDir());
        assertEquals(4, gate.code(), gate.console());
        assertTrue(gate.console().contains("gate: UNDECIDED") && gate.console().contains("its A/B is undecided"), gate.console());
    }

    /** In the forks mode, A's and B's cells are measured in JVMs of their own: B's failure leaves A's cell measured. */
    @Test
    void aCellThatFailsInBIsReportedAsBsAndAsResultsAreKept() throws Exception {
        Properties p = runs.ab(runs.build("main", "60", "0"), runs.build("pr", "60", "4"));
        p.setProperty("bench.ab.mode", "forks");
        AbRuns.Ran ran = runs.run(p);
        assertEquals(1, ran.code(), "a failed cell is a finding: " + ran.console());
        JsonNode failed = ran.ab().path("cells").get(2);
        assertEquals(4, failed.path("batch").asInt());
        assertTrue(failed.path("failed").asText().startsWith("B failed: "), failed.toString());
        assertTrue(failed.path("failed").asText().contains("the model server went away at batch 4"), failed.toString());
        JsonNode baseline = AbRuns.JSON.readTree(ran.runDir().resolve("baseline/run.json").toFile());
        assertEquals("ok", baseline.path("cells").get(2).path("status").asText(), "A's batch 4 is measured and kept");
        assertEquals("ok", ran.ab().path("cells").get(0).path("p50").isMissingNode() ? "missing" : "ok");
        assertTrue(Files.readString(ran.runDir().resolve("ab.md")).contains("FAILED: B failed:"));
    }

    @Test
    void settingsAnAbRunDecidesItselfAreRefusedBeforeMeasuring() throws Exception {
        Path code = runs.build("main", "60", "0");
        Properties forks = runs.ab(code, code);
        forks.setProperty("bench.forks", "5");
        AbRuns.Ran ran = runs.run(forks);
        assertEquals(2, ran.code(), ran.console());
        assertTrue(ran.console().contains("-Dbench.forks does not apply to an A/B run"), ran.console());

        Properties noA = runs.ab(code, code);
        noA.remove("bench.ab.baseline");
        noA.setProperty("bench.ab.threshold", "3");
        ran = runs.run(noA);
        assertEquals(2, ran.code(), ran.console());
        assertTrue(ran.console().contains("no A was given"), ran.console());

        Properties missing = runs.ab(dir.resolve("no-such-build"), code);
        ran = runs.run(missing);
        assertEquals(2, ran.code(), ran.console());
        assertTrue(ran.console().contains("A (-Dbench.ab.baseline="), ran.console());
        assertTrue(ran.run() == null, "nothing was measured or written");
    }

    /**
     * The {@code passes} mode: each pair is one fork JVM holding A's session and B's (two models), so a run has as many
     * JVMs as pairs, not twice as many; each subject's cells are its own phase of the fork's units, each fork's on its
     * own, and A's own run keeps them. B's cells are B's alone (no phases, a p50 well under the pair's two passes).
     */
    @Test
    void aPassesRunHoldsBothModelsInOneForkPerPairAndSplitsTheirPasses() throws Exception {
        Properties p = new Properties();
        p.setProperty("bench.backend", "onnxruntime");
        p.setProperty("bench.model", "tiny");
        p.setProperty("bench.ab.baseline", "tiny");
        p.setProperty("bench.ab.mode", "passes");
        p.setProperty("bench.ab.maxPairs", "3");
        p.setProperty("bench.seq", "16");
        p.setProperty("bench.batch", "1,2");
        p.setProperty("bench.warmup", "10");
        p.setProperty("bench.iterations", "40");
        p.setProperty("bench.threads", "1");
        p.setProperty("bench.results", dir.resolve("results").toString());
        p.setProperty("bench.cache", TestPaths.modelCache().toString());
        AbRuns.Ran ran = runs.run(p);
        assertEquals(4, ran.code(), "3 pairs give no interval: undecided, exit code 4: " + ran.console());
        assertTrue(ran.console().contains("each pair is one fork JVM holding A's session and B's"), ran.console());
        assertTrue(ran.console().contains("A/B pair 3 (one fork, passes alternating"), ran.console());
        assertEquals("passes", ran.run().path("ab").path("mode").asText());
        JsonNode stop = ran.run().path("config").path("measurePolicy").path("stop");
        assertEquals(40, stop.path("minPasses").asInt(), "a fork is one pair: at least 40 units of each side, recorded: " + stop);
        assertEquals(8000, stop.path("capMs").asInt(), "and the time for them: " + stop);
        assertEquals(2000, stop.path("minMs").asInt(), "over at least 2 s: " + stop);
        assertEquals(3, ran.run().path("forkJvms").size(), "one fork JVM per pair: " + ran.run().path("forkJvms"));
        JsonNode ab = ran.run().path("ab");
        assertEquals(0.5, ab.path("floorPercent").asDouble(), "the floor, written flat beside the threshold: " + ab);
        assertEquals(1.5, ab.path("resolutionPercent").asDouble());
        assertTrue(ab.path("rules").isMissingNode(), "the rules' group is not a key of its own");
        AbSection.Rules read = io.inferbench.results.RunStore.readRun(ran.runDir().resolve("run.json")).ab().rules();
        assertEquals(new AbSection.Rules(5, 1.5, 0.5, 0.95, 5, 3), read, "and read back whole, as the gate reads it");
        JsonNode baseline = AbRuns.JSON.readTree(ran.runDir().resolve("baseline/run.json").toFile());
        assertEquals(3, baseline.path("forkJvms").size(), "A's run names the same JVMs");
        for (int i = 0; i < 2; i++) {
            JsonNode a = baseline.path("cells").get(i);
            JsonNode b = ran.run().path("cells").get(i);
            for (JsonNode cell : List.of(a, b)) {
                assertEquals("ok", cell.path("status").asText(), cell.toString());
                assertEquals(40 * 3, cell.path("measuredPasses").asInt(), "one pass of each per unit, 40 units a fork");
                assertEquals(3, cell.path("forkHistogramsNs").size(), "each fork's own passes, for its pair");
                assertTrue(cell.path("phases").isMissingNode() || cell.path("phases").isNull(), "a subject's cell has no phases");
                assertTrue(cell.path("warmupLatencyMs").isMissingNode() || cell.path("warmupLatencyMs").isNull(),
                        "the warm-up timed both together");
            }
            assertEquals(a.path("batch").asInt(), b.path("batch").asInt());
            assertEquals(a.path("seqLen").asInt(), b.path("seqLen").asInt());
            JsonNode pairs = ran.run().path("ab").path("cells").get(i).path("pairs");
            assertEquals(3, pairs.size(), "a pair per fork: " + pairs);
            for (JsonNode pair : pairs) {
                assertTrue(pair.path("bFirst").isMissingNode() || pair.path("bFirst").isNull(), "no fork order in this mode");
                JsonNode order = pair.path("order");
                assertEquals(40, order.path("calls").asInt(), "the fork's measured units: " + pair);
                int bFirst = order.path("bFirstCalls").asInt();
                assertTrue(Math.abs(2 * bFirst - 40) <= 2, "each order once per block of two units puts B first in half, to within "
                        + "one: " + pair);
            }
            JsonNode cellOrder = ran.ab().path("cells").get(i).path("order");
            assertEquals(120, cellOrder.path("calls").asInt(), "the cell's order sums its pairs': " + cellOrder);
        }
        assertTrue(ran.console().contains("order drawn per call: B first in "), ran.console());
        String md = Files.readString(ran.runDir().resolve("ab.md"));
        assertTrue(md.contains("one pair per fork, their passes alternating"), md);
        assertTrue(md.contains("## The order of the calls"), md);
        assertTrue(md.startsWith("# inferbench A/B: undecided: 0 regression, 0 no regression shown, 2 undecided of 2 cell(s)"),
                "3 pairs cannot rule a regression out: " + md);
        Gated gate = gate(ran.runDir());
        assertEquals(4, gate.code(), gate.console());
        assertTrue(gate.console().contains("its A/B is undecided after its pairs stopped"), gate.console());
    }

    @Test
    void modelsWhoseInputsDifferAreRefusedBeforeMeasuring() throws Exception {
        Path a = TestModels.idsOnly(Files.createDirectories(dir.resolve("a")));
        Path b = TestModels.bertStyle(Files.createDirectories(dir.resolve("b")));
        Properties p = new Properties();
        p.setProperty("bench.backend", "onnxruntime");
        p.setProperty("bench.model", b.toString());
        p.setProperty("bench.ab.baseline", a.toString());
        p.setProperty("bench.seq", "16");
        p.setProperty("bench.batch", "1");
        p.setProperty("bench.results", dir.resolve("results").toString());
        p.setProperty("bench.cache", TestPaths.modelCache().toString());
        AbRuns.Ran ran = runs.run(p);
        assertEquals(2, ran.code(), ran.console());
        assertTrue(ran.console().contains("cannot be compared"), ran.console());
        assertTrue(ran.console().contains("input_ids"), ran.console());
        assertFalse(ran.console().contains("A/B pair 1"), "refused before the first pair");
    }
}
