package io.inferbench.cli;

import io.inferbench.option.PropertyValues;
import io.inferbench.results.CellStatus;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.results.StageResult;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * {@code gate}: the last step of a pull request's check, which passes only on a run this build measured. A check that
 * reads only the build's exit code passes when nothing was measured at all (the plugin not bound in the pom, a profile
 * that does not exist, {@code -Dbench.skip=true}, a results folder left from another build). So the gate reads the run
 * itself ({@code -Dgate.run}, {@code results/latest} by default) and fails, saying which, when:
 * <ul>
 *   <li>there is no run there: nothing was measured;</li>
 *   <li>the run started longer ago than {@code -Dgate.maxAgeMinutes}: it is not this build's;</li>
 *   <li>no cell was measured (every cell failed, or the plan had none), or a cell or a stage failed;</li>
 *   <li>the run's own comparison ({@code -Dbench.baseline}) found a regression, or, in an A/B run
 *       ({@code -Dbench.ab.baseline}), B is a regression against A, or A's cell failed.</li>
 * </ul>
 * It measures nothing and starts no engine.
 */
final class GateCommand {
    private GateCommand() {
    }

    static ExitCode run(Properties p, PrintStream out) {
        Settings.checkKnown(p);
        Path given = Settings.path(p, CommandSetting.GATE_RUN, Settings.root(p));
        Path file = Files.isDirectory(given) ? given.resolve("run.json") : given;
        if (!Files.isRegularFile(file)) {
            out.println("[inferbench] gate: FAILED: no run at " + file + ": this build measured nothing. Bind the plugin's "
                    + "run goal in your pom (docs/your-project.md), leave -Dbench.skip unset, and point -Dgate.run at the "
                    + "run's folder if -Dbench.results moved it");
            return ExitCode.FINDING;
        }
        RunResult run = RunStore.readRun(file);
        List<String> problems = new ArrayList<>();
        long maxAgeMinutes = PropertyValues.positiveInt(CommandSetting.GATE_MAX_AGE, p);
        Duration age = age(run.startedAt());
        if (age == null) {
            problems.add("its start (" + run.startedAt() + ") cannot be read, so it cannot be shown to be this build's");
        } else if (age.toMinutes() > maxAgeMinutes) {
            problems.add("it started " + age.toMinutes() + " min ago (" + run.startedAt() + "), more than -Dgate.maxAgeMinutes="
                    + maxAgeMinutes + ": it is not this build's run");
        }
        int measured = run.measuredCells();
        List<String> failed = run.cells().stream().filter(c -> c.status() != CellStatus.OK)
                .map(c -> c.backend() + "/" + c.model() + " seq " + c.seqLen() + " batch " + c.batch()).toList();
        if (measured == 0) {
            problems.add("no cell was measured (" + run.cells().size() + " planned)");
        }
        if (!failed.isEmpty()) {
            problems.add(failed.size() + " cell(s) failed: " + String.join(", ", failed));
        }
        if (run.stages() != null) {
            run.stages().stream().filter(StageResult::failed)
                    .forEach(s -> problems.add("its stage '" + s.name() + "' " + s.status() + (s.error() == null ? "" : ": " + s.error())));
        }
        if (run.comparison() != null && run.comparison().regressed()) {
            problems.add(run.comparison().regressedCells() + " cell(s) regressed against " + run.comparison().baseline()
                    + " (compare.md)");
        }
        if (run.ab() != null) {
            if (Boolean.TRUE.equals(run.ab().regressed())) {
                problems.add("B is a regression against A (ab.md says in which cells, by how much)");
            }
            run.ab().cells().stream().filter(c -> c.failed() != null && c.failed().startsWith("A"))
                    .forEach(c -> problems.add(c.id() + ": " + io.inferbench.Text.shorten(c.failed(), 200)));
            if (run.ab().stop() == null) {
                problems.add("its pairs did not finish (the run was stopped): ab.md holds the pairs it kept");
            }
        }
        String what = "run " + run.runId() + " (" + file + ")";
        if (!problems.isEmpty()) {
            out.println("[inferbench] gate: FAILED: " + what + ": " + String.join("; ", problems));
            return ExitCode.FINDING;
        }
        out.println("[inferbench] gate: passed: " + what + " measured " + measured + " cell(s), started "
                + age.toMinutes() + " min ago" + (run.ab() != null ? ", A/B: no regression of B against A"
                + (run.ab().sameSubject() ? " (an A/A run)" : "") : run.comparison() == null ? ", not compared (no -Dbench.baseline)"
                : ", no regression against " + run.comparison().baseline()));
        return ExitCode.OK;
    }

    /** How long ago {@code startedAt} was; null when it is not an ISO-8601 time with an offset. */
    static Duration age(String startedAt) {
        if (startedAt == null) {
            return null;
        }
        try {
            return Duration.between(OffsetDateTime.parse(startedAt).toInstant(), Instant.now());
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
