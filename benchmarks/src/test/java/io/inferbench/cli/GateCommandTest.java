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
import java.util.Properties;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    /** The sample run with every cell measured and every stage finished. */
    private static void allWell(ObjectNode json) {
        json.withArray("cells").forEach(c -> ((ObjectNode) c).put("status", "ok").remove("error"));
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
        assertEquals(ExitCode.FINDING, o.exit());
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
}
