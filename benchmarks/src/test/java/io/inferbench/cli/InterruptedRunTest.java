package io.inferbench.cli;

import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.runner.ForkEvent;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.InProcessForkExecutor;
import io.inferbench.runner.TestOptions;
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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a run keeps when it cannot go on: a results folder that stops taking files mid-run (a full disk, a folder made
 * read-only, here a folder taken away and a file put in its place, which root's permissions cannot stop) keeps every cell
 * written before, says which file it could not write, and exits with 3, never with 2 (bad input found before measuring);
 * and the gate fails the run it left.
 */
class InterruptedRunTest {
    @TempDir
    Path dir;

    private record Ran(int code, String console) {
    }

    private Ran sweep(Properties p, ForkExecutor executor) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(sink, true, StandardCharsets.UTF_8);
        int code = InferbenchMain.run(new String[]{"sweep"}, p, out, out, options -> executor).code();
        return new Ran(code, sink.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aFolderThatStopsTakingFilesKeepsWhatWasWrittenAndExitsWithThree() throws Exception {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.profile", "false");
        InProcessForkExecutor real = new InProcessForkExecutor();
        List<Path> moved = new ArrayList<>();
        ForkExecutor executor = (plan, planFile, consoleLog, events) -> real.run(plan, planFile, consoleLog, event -> {
            ForkExecutor.Next next = events.on(event);
            if (event instanceof ForkEvent.CellDone && moved.isEmpty()) {
                Path runDir = consoleLog.getParent();
                Path away = runDir.resolveSibling("taken-away");
                try {
                    Files.move(runDir, away);
                    Files.writeString(runDir, "not a folder any more");
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                moved.add(away);
            }
            return next;
        });
        Ran ran = sweep(p, executor);
        assertEquals(3, ran.code(), "a write that fails mid-run is no bad input: " + ran.console());
        assertTrue(ran.console().contains("STOPPED: Could not write ") && ran.console().contains("run.json"), ran.console());
        RunResult kept = RunStore.readRun(moved.get(0).resolve(RunStore.RUN_FILE));
        assertEquals(1, kept.cells().size(), "the cell written before the folder went: " + kept.cells());
        assertNull(kept.finishedAt());

        ByteArrayOutputStream gate = new ByteArrayOutputStream();
        Properties g = new Properties();
        g.setProperty("gate.run", moved.get(0).toString());
        ExitCode exit = GateCommand.run(g, new PrintStream(gate, true, StandardCharsets.UTF_8));
        String said = gate.toString(StandardCharsets.UTF_8);
        assertEquals(ExitCode.UNDECIDED, exit, said);
        assertTrue(said.contains("it did not finish") && said.contains("it measured 1 of its 4 planned cell(s)"), said);
    }
}
