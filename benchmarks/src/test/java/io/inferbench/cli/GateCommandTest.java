package io.inferbench.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.inferbench.results.Json;
import io.inferbench.results.SampleRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gate passes only on a run this build measured: none, an old one, or one that measured nothing fails it. */
class GateCommandTest {
    @TempDir
    Path dir;

    private record Outcome(ExitCode exit, String console) {
    }

    private Outcome gate(Path run) {
        Properties p = new Properties();
        p.setProperty("gate.run", run.toString());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ExitCode exit = GateCommand.run(p, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return new Outcome(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    /** The sample run, started {@code minutesAgo} before now, changed by {@code edit}, in a folder of its own. */
    private Path run(long minutesAgo, Consumer<ObjectNode> edit) throws Exception {
        ObjectNode json = Json.mapper().valueToTree(SampleRuns.sampleRun());
        json.put("startedAt", Instant.now().minus(minutesAgo, ChronoUnit.MINUTES).toString());
        edit.accept(json);
        Path folder = Files.createDirectories(dir.resolve("run-" + System.nanoTime()));
        Json.mapper().writeValue(folder.resolve("run.json").toFile(), json);
        return folder;
    }

    @Test
    void noRunFailsTheGateSayingNothingWasMeasured() {
        Outcome o = gate(dir.resolve("results/latest"));
        assertEquals(ExitCode.FINDING, o.exit());
        assertTrue(o.console().contains("this build measured nothing") && o.console().contains("run goal"), o.console());
    }

    /** The sample run with its failed cell left out and every stage finished. */
    private static void allWell(ObjectNode json) {
        var cells = json.withArray("cells");
        for (int i = cells.size() - 1; i >= 0; i--) {
            if (!"ok".equals(cells.get(i).path("status").asText())) {
                cells.remove(i);
            }
        }
        json.remove("stages");
    }

    @Test
    void theSampleRunFailsTheGateForItsFailedCellAndStage() throws Exception {
        Outcome o = gate(run(2, json -> { }));
        assertEquals(ExitCode.FINDING, o.exit());
        assertTrue(o.console().contains("1 cell(s) failed: onnxruntime/tiny seq 64 batch 4")
                && o.console().contains("its stage 'profile' failed"), o.console());
    }

    @Test
    void aFreshRunWithMeasuredCellsPasses() throws Exception {
        Outcome o = gate(run(2, GateCommandTest::allWell));
        assertEquals(ExitCode.OK, o.exit(), o.console());
        assertTrue(o.console().contains("gate: passed") && o.console().contains("cell(s)"), o.console());
    }

    @Test
    void aRunFromAnotherBuildFailsTheGate() throws Exception {
        Outcome o = gate(run(24 * 60, GateCommandTest::allWell));
        assertEquals(ExitCode.UNDECIDED, o.exit(), "a run the gate cannot vouch for is no pass, and no finding either");
        assertTrue(o.console().contains("not this build's run"), o.console());
    }

    @Test
    void aRunWhoseCellsAllFailedMeasuredNothingAndFailsTheGate() throws Exception {
        Outcome o = gate(run(1, json -> json.withArray("cells").forEach(c -> ((ObjectNode) c).put("status", "failed"))));
        assertEquals(ExitCode.FINDING, o.exit());
        assertTrue(o.console().contains("no cell was measured") && o.console().contains("cell(s) failed"), o.console());
    }

    @Test
    void aRunWithNoCellsFailsTheGate() throws Exception {
        Outcome o = gate(run(1, json -> json.putArray("cells")));
        assertEquals(ExitCode.FINDING, o.exit());
        assertTrue(o.console().contains("no cell was measured (0 planned)"), o.console());
    }

    /** The gate as a command line runs it: a file that is no run is bad input, exit code 2, never an internal error. */
    private Outcome gateCommand(Path run) {
        Properties p = new Properties();
        p.setProperty("gate.run", run.toString());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ExitCode exit = InferbenchMain.run(new String[]{"gate"}, p, out, out);
        return new Outcome(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aFileThatIsNoRunIsBadInputNamingTheFileAndWhatARunIs() throws Exception {
        for (String[] content : List.of(new String[]{"null", "it holds null"}, new String[]{"[]", "an array of 0 element(s)"},
                new String[]{"", "nothing (the file is empty)"}, new String[]{"{\"name\": \"eslint\", \"errors\": 3}",
                "a JSON object without schemaVersion, runId, cells"}, new String[]{"42", "a number"})) {
            Path file = Files.writeString(dir.resolve("other-" + System.nanoTime() + ".json"), content[0]);
            Outcome o = gateCommand(file);
            assertEquals(ExitCode.BAD_INPUT, o.exit(), content[0] + ": " + o.console());
            assertTrue(o.console().contains(file.toAbsolutePath() + " is not a run.json written by inferbench")
                    && o.console().contains(content[1]) && o.console().contains("A run.json is the JSON object a run writes"),
                    content[0] + ": " + o.console());
            assertFalse(o.console().contains("INTERNAL ERROR"), o.console());
        }
    }

    @Test
    void aRunThatDidNotFinishOrSaysItStartedInTheFutureIsNoPass() throws Exception {
        Outcome unfinished = gate(run(2, json -> {
            allWell(json);
            json.remove("finishedAt");
        }));
        assertEquals(ExitCode.UNDECIDED, unfinished.exit(), unfinished.console());
        assertTrue(unfinished.console().contains("it did not finish (run.json has no finishedAt)"), unfinished.console());

        Outcome future = gate(run(-60L * 24 * 365 * 72, GateCommandTest::allWell));
        assertEquals(ExitCode.UNDECIDED, future.exit(), future.console());
        assertTrue(future.console().contains("min in the future"), future.console());
        assertFalse(future.console().contains("min ago"), future.console());
    }

    @Test
    void aRunThatMeasuredPartOfItsPlanOrAnOkCellWithNoDataIsNoPass() throws Exception {
        Outcome partial = gate(run(2, json -> {
            allWell(json);
            var planned = ((ObjectNode) json.get("config")).putArray("plannedCells");
            json.withArray("cells").forEach(c -> planned.add(c.path("backend").asText() + "/" + c.path("device").asText() + "/"
                    + c.path("model").asText() + "/seq" + c.path("seqLen").asInt() + "/batch" + c.path("batch").asInt()));
            planned.add("onnxruntime/cpu/tiny/seq512/batch8");
        }));
        assertEquals(ExitCode.UNDECIDED, partial.exit(), partial.console());
        assertTrue(partial.console().contains("never measured: onnxruntime/cpu/tiny/seq512/batch8"), partial.console());

        Outcome empty = gate(run(2, json -> {
            allWell(json);
            ((ObjectNode) json.withArray("cells").get(0)).remove("histogramNs");
        }));
        assertEquals(ExitCode.UNDECIDED, empty.exit(), empty.console());
        assertTrue(empty.console().contains("say ok but hold no measurement"), empty.console());
    }

    @Test
    void anUndecidedComparisonFailsTheGateWithItsOwnCode() throws Exception {
        Outcome o = gate(run(2, json -> {
            allWell(json);
            ((ObjectNode) json.get("comparison")).put("decision", "undecided").put("undecidedCells", 2);
        }));
        assertEquals(ExitCode.UNDECIDED, o.exit(), o.console());
        assertTrue(o.console().contains("gate: UNDECIDED") && o.console().contains("is undecided in 2 cell(s)"), o.console());
    }

    /** The gate with no -Dgate.run, in a project folder: it reads the build's record there. */
    private static Outcome gateOfBuildIn(Path root) {
        Properties p = new Properties();
        p.setProperty(Settings.ROOT_PROPERTY, root.toString());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ExitCode exit = GateCommand.run(p, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return new Outcome(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    /** The build's record: a run goal refused before measuring fails the gate, though an older run is in results/latest. */
    @Test
    void aBuildWhoseRunWasRefusedFailsTheGateThoughAnOlderRunIsThere() throws Exception {
        Path root = Files.createDirectories(dir.resolve("project"));
        Path older = run(16, GateCommandTest::allWell);
        Files.createDirectories(root.resolve("results"));
        Files.createSymbolicLink(root.resolve("results/latest"), older);
        BuildRecord.noRun(root, "service", ExitCode.BAD_INPUT, "refused before measuring (exit code 2): -Dbench.ab.baseline "
                + "names a folder that does not exist");
        Outcome o = gateOfBuildIn(root);
        String said = o.console();
        assertEquals(ExitCode.FINDING, o.exit(), said);
        assertTrue(said.contains("service's run made no run folder: refused before measuring"), said);
        assertFalse(said.contains("gate: passed"), "the older run in results/latest is not this build's: " + said);
    }

    /** Two runs of one build (the archetype's target and its model): the gate checks both. */
    @Test
    void everyRunOfTheBuildIsChecked() throws Exception {
        Path root = Files.createDirectories(dir.resolve("two"));
        Path good = run(3, GateCommandTest::allWell);
        Path failed = run(2, json -> { });
        for (Path run : List.of(good, failed)) {
            int entry = BuildRecord.begin(root, "m");
            Files.writeString(Path.of(BuildRecord.read(root).runs().get(entry).runFolderFile()), run.toString());
            BuildRecord.end(root, entry, ExitCode.OK, null);
        }
        Outcome o = gateOfBuildIn(root);
        String said = o.console();
        assertEquals(ExitCode.FINDING, o.exit(), said);
        assertTrue(said.contains("gate: passed: run") && said.contains("1 cell(s) failed"), said);
        assertTrue(said.contains("this build's record"), said);
    }
}
