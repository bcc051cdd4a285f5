package io.inferbench.cli;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.compare.GateDecision;
import io.inferbench.option.PropertyValues;
import io.inferbench.results.CellResult;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * {@code gate}: the last step of a pull request's check, which passes only on runs this build measured whole, and
 * fails closed on anything it cannot vouch for. A check that reads only the build's exit code passes when nothing was
 * measured (the plugin not bound, a profile that does not exist, {@code -Dbench.skip=true}, a results folder left from
 * another build). So the gate reads the runs themselves:
 * <ul>
 *   <li>which: {@code -Dgate.run} when given; otherwise every run this build made, from the build's record
 *       ({@link BuildRecord}: a run goal that was refused or skipped fails the gate); with no record,
 *       {@code results/latest};</li>
 *   <li>each must have finished ({@code finishedAt}), started in the past within {@code -Dgate.maxAgeMinutes}, measured
 *       every cell it planned with data, failed no cell and no stage;</li>
 *   <li>and every comparison in it must be decided: its own comparison ({@code -Dbench.baseline}) and an A/B run's pairs
 *       each {@code no regression shown} ({@link GateDecision}); a regression is a finding (exit code 1), anything
 *       undecided exit code 4.</li>
 * </ul>
 * Each refusal names what it found and the fix. It measures nothing and starts no engine.
 */
final class GateCommand {
    /** How far in the future a run's start may lie before the gate calls its clock wrong: clocks of one machine. */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(2);

    private GateCommand() {
    }

    /** What the gate found about one run. */
    record Finding(List<String> findings, List<String> undecided, List<String> cannotVouch, String passLine) {
        boolean passed() {
            return findings.isEmpty() && undecided.isEmpty() && cannotVouch.isEmpty();
        }
    }

    static ExitCode run(Properties p, PrintStream out) {
        PropertyNames.checkKnown(p);
        long maxAgeMinutes = PropertyValues.positiveInt(CommandSetting.GATE_MAX_AGE, p);
        List<Path> runs = new ArrayList<>();
        List<String> buildProblems = new ArrayList<>();
        String source;
        if (CommandSetting.GATE_RUN.userValue(p).isPresent()) {
            runs.add(Settings.path(p, CommandSetting.GATE_RUN, Settings.root(p)));
            source = "-Dgate.run";
        } else {
            BuildRecord.Record record = BuildRecord.read(Settings.root(p));
            if (record == null) {
                runs.add(Settings.path(p, CommandSetting.GATE_RUN, Settings.root(p)));
                source = "results/latest (no build record at " + BuildRecord.file(Settings.root(p)) + ")";
            } else {
                source = "this build's record (" + BuildRecord.file(Settings.root(p)) + ", started " + record.startedAt() + ")";
                if (record.runs().isEmpty()) {
                    buildProblems.add("the build's record lists no run");
                }
                for (BuildRecord.Entry entry : record.runs()) {
                    Path folder = entry.folder();
                    if (folder == null) {
                        buildProblems.add(entry.module() + "'s run made no run folder: " + (entry.note() != null ? entry.note()
                                : entry.exitCode() == null ? "the build was stopped before it began measuring"
                                : "it ended with exit code " + entry.exitCode() + " before measuring"));
                    } else {
                        runs.add(folder);
                    }
                }
            }
        }
        int worst = 0; // 0 ok, 1 finding, 4 undecided
        List<String> passes = new ArrayList<>();
        if (!buildProblems.isEmpty()) {
            out.println("[inferbench] gate: FAILED: " + String.join("; ", buildProblems) + ". Fix what refused it (the build's "
                    + "log says), leave -Dbench.skip unset, and run the build again");
            worst = 1;
        }
        Set<Path> seen = new LinkedHashSet<>();
        for (Path given : runs) {
            Path file = Files.isDirectory(given) ? given.resolve(RunStore.RUN_FILE) : given;
            if (!seen.add(file.toAbsolutePath().normalize())) {
                continue;
            }
            if (!Files.isRegularFile(file)) {
                out.println("[inferbench] gate: FAILED: no run at " + file + ": this build measured nothing there. Bind the "
                        + "plugin's run goal in your pom (docs/your-project.md), leave -Dbench.skip unset, and point -Dgate.run "
                        + "at the run's folder if -Dbench.results moved it");
                worst = 1;
                continue;
            }
            RunResult run = RunStore.readRun(file); // not a run: BenchmarkException, exit code 2
            Finding f = check(run, maxAgeMinutes, Instant.now());
            String what = "run " + run.runId() + " (" + file + ")";
            if (f.passed()) {
                passes.add(f.passLine());
                out.println("[inferbench] gate: passed: " + what + " " + f.passLine());
                continue;
            }
            List<String> all = new ArrayList<>(f.findings());
            all.addAll(f.cannotVouch());
            all.addAll(f.undecided());
            boolean finding = !f.findings().isEmpty();
            out.println("[inferbench] gate: " + (finding ? "FAILED" : "UNDECIDED") + ": " + what + ": " + String.join("; ", all));
            worst = finding || worst == 1 ? 1 : 4;
        }
        if (worst == 0 && passes.isEmpty()) {
            throw new BenchmarkException("the gate found no run to check in " + source);
        }
        if (worst != 0) {
            out.println("[inferbench] gate: the check fails (" + (worst == 1 ? "exit code 1, a finding" : "exit code 4, undecided: "
                    + "nothing here is a pass") + "); runs read from " + source);
        }
        return worst == 0 ? ExitCode.OK : worst == 1 ? ExitCode.FINDING : ExitCode.UNDECIDED;
    }

    /**
     * Everything the gate asks of one run, each problem in words with its fix: findings (a failed cell or stage, a
     * regression), what leaves the run unvouched for (not finished, not this build's, cells missing or empty), and
     * comparisons that are undecided.
     */
    static Finding check(RunResult run, long maxAgeMinutes, Instant now) {
        List<String> findings = new ArrayList<>();
        List<String> cannotVouch = new ArrayList<>();
        List<String> undecided = new ArrayList<>();
        Instant started = instant(run.startedAt());
        if (started == null) {
            cannotVouch.add("its start (" + run.startedAt() + ") cannot be read, so it cannot be shown to be this build's");
        } else if (started.isAfter(now.plus(CLOCK_SKEW))) {
            cannotVouch.add("it says it started at " + run.startedAt() + ", " + Duration.between(now, started).toMinutes()
                    + " min in the future: a clock or a file that is wrong. Measure it again");
        } else if (Duration.between(started, now).toMinutes() > maxAgeMinutes) {
            cannotVouch.add("it started " + Duration.between(started, now).toMinutes() + " min ago (" + run.startedAt()
                    + "), more than -Dgate.maxAgeMinutes=" + maxAgeMinutes + ": it is not this build's run");
        }
        if (run.finishedAt() == null) {
            cannotVouch.add("it did not finish (run.json has no finishedAt): it was stopped or killed, or is still running; "
                    + "what it measured is kept, but a part is no pass. Run it again to the end");
        }
        List<String> failed = run.cells().stream().filter(c -> !c.measured()).map(GateCommand::name).toList();
        if (!failed.isEmpty()) {
            findings.add(failed.size() + " cell(s) failed: " + String.join(", ", failed));
        }
        if (run.generation() != null && !run.generation().failures().isEmpty()) {
            findings.add(run.generation().failures().size() + " generation cell(s) failed");
        }
        List<String> empty = run.cells().stream().filter(CellResult::measured)
                .filter(c -> c.histogramNs() == null || c.histogramNs().isBlank()).map(GateCommand::name).toList();
        if (!empty.isEmpty()) {
            cannotVouch.add(empty.size() + " cell(s) say ok but hold no measurement: " + String.join(", ", empty)
                    + " (run.json was not written whole by inferbench)");
        }
        int measured = run.measuredCells() - empty.size();
        List<String> planned = run.config() == null ? null : run.config().plan().plannedCells();
        if (planned != null && run.generation() == null) {
            Set<String> present = new LinkedHashSet<>(run.cells().stream().map(CellResult::id).toList());
            List<String> missing = planned.stream().filter(id -> !present.contains(id)).toList();
            if (!missing.isEmpty()) {
                cannotVouch.add("it measured " + (planned.size() - missing.size()) + " of its " + planned.size()
                        + " planned cell(s); never measured: " + Text.shorten(String.join(", ", missing), 300));
            }
        }
        if (measured <= 0) {
            cannotVouch.add("no cell was measured (" + (planned != null ? planned.size() : run.cells().size()) + " planned)");
        }
        if (run.stages() != null) {
            run.stages().stream().filter(StageResult::failed)
                    .forEach(s -> findings.add("its stage '" + s.name() + "' " + s.status() + (s.error() == null ? "" : ": " + s.error())));
        }
        if (run.comparison() != null) {
            String decision = run.comparison().decision();
            if (run.comparison().regressed() || GateDecision.REGRESSION.label().equals(decision)
                    || GateDecision.FAILED.label().equals(decision)) {
                findings.add(run.comparison().regressedCells() + " cell(s) regressed against " + run.comparison().baseline()
                        + " (compare.md)");
            } else if (!GateDecision.NO_REGRESSION.label().equals(decision)) {
                undecided.add("its comparison with " + run.comparison().baseline() + " is "
                        + (decision == null ? "undecided (run.json predates the gate's decision)"
                        : decision + " in " + run.comparison().undecidedCells() + " cell(s)")
                        + ": compare.md says what would decide them (more forks, -Dbench.forks)");
            }
        }
        if (run.ab() != null) {
            if (Boolean.TRUE.equals(run.ab().regressed())) {
                findings.add("B is a regression against A (ab.md says in which cells, by how much)");
            }
            run.ab().cells().stream().filter(c -> c.failed() != null)
                    .forEach(c -> findings.add(c.id() + ": " + Text.shorten(c.failed(), 200)));
            if (run.ab().stop() == null) {
                cannotVouch.add("its pairs did not finish (the run was stopped): ab.md holds the pairs it kept");
            } else if (!Boolean.TRUE.equals(run.ab().regressed())
                    && !GateDecision.NO_REGRESSION.label().equals(run.ab().decision())) {
                undecided.add("its A/B is " + (run.ab().decision() == null ? "undecided (run.json predates the gate's decision)"
                        : run.ab().decision()) + " after its pairs stopped (" + run.ab().stop() + "): ab.md names the cells and "
                        + "the pairs or minutes that would decide them (-Dbench.ab.maxMinutes, -Dbench.ab.maxPairs)");
            }
        }
        String pass = "measured " + measured + " cell(s), started " + (started == null ? "?" : Duration.between(started, now)
                .toMinutes()) + " min ago" + (run.ab() != null ? ", A/B: no regression of B against A shown"
                + (run.ab().sameSubject() ? " (an A/A run)" : "") : run.comparison() == null
                ? ", not compared (no -Dbench.baseline)" : ", no regression against " + run.comparison().baseline() + " shown");
        return new Finding(findings, undecided, cannotVouch, pass);
    }

    private static String name(CellResult c) {
        return c.backend() + "/" + c.model() + " seq " + c.seqLen() + " batch " + c.batch();
    }

    /** When {@code startedAt} was; null when it is not an ISO-8601 time with an offset. */
    static Instant instant(String startedAt) {
        if (startedAt == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(startedAt).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** How long ago {@code startedAt} was; null when it is not an ISO-8601 time with an offset. */
    static Duration age(String startedAt) {
        Instant started = instant(startedAt);
        return started == null ? null : Duration.between(started, Instant.now());
    }
}
