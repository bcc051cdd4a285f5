package io.inferbench.pipeline;

import io.inferbench.BenchmarkException;
import io.inferbench.report.ReportWriter;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.results.SampleRuns;
import io.inferbench.results.StageResult;
import io.inferbench.runner.TimeAccount;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The run's stages, each run, timed, failed and written the same way, and the report rendered once at the end. */
class PipelineTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream console = new PrintStream(printed, true, StandardCharsets.UTF_8);
    /** What each stage saw in run.json when it began. */
    private final List<List<String>> seenOnDisk = new ArrayList<>();

    /** A stage that records what run.json held when it began, then does {@code work} to the run. */
    private Stage stage(String name, List<String> needs, boolean applies, Work work) {
        return new Stage() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public TimeAccount.Phase phase() {
                return TimeAccount.Phase.PROFILE;
            }

            @Override
            public List<String> needs() {
                return needs;
            }

            @Override
            public boolean applies(RunResult run) {
                return applies;
            }

            @Override
            public RunResult run(RunResult run, RunContext context) throws Exception {
                seenOnDisk.add(context.store() == null ? null
                        : RunStore.readRun(context.store().runFile()).stages().stream().map(StageResult::name).toList());
                return work.on(run);
            }
        };
    }

    @FunctionalInterface
    private interface Work {
        RunResult on(RunResult run) throws Exception;
    }

    /** The first stage: a finished sweep's run, without the timing and stages the pipeline adds. */
    private Stage start() {
        return stage("preflight", List.of(), true, none -> SampleRuns.sampleRun().withTiming(null).withStages(List.of())
                .withComparison(null).withIdentity(RunResult.SCHEMA_VERSION, "20261202-120000-abcd"));
    }

    @Test
    void everyStageIsRecordedAndWrittenAfterAndTheReportIsRenderedOnceWithItsWallTime() throws Exception {
        Pipeline.Outcome outcome = new Pipeline(dir, console, new TimeAccount()).run(List.of(start(),
                stage("sweep", List.of("preflight"), true, run -> run),
                stage("serving", List.of("sweep"), false, run -> {
                    throw new AssertionError("a stage the run did not ask for runs");
                }),
                stage("profile", List.of("sweep"), true, run -> run)));

        assertEquals(List.of("preflight", "sweep", "profile", Pipeline.REPORT),
                outcome.run().stages().stream().map(StageResult::name).toList(), "a stage not asked for is not recorded");
        assertTrue(outcome.run().stages().stream().allMatch(s -> StageResult.OK.equals(s.status()) && s.error() == null));
        assertEquals(java.util.Arrays.asList(null, List.of("preflight"), List.of("preflight", "sweep")), seenOnDisk,
                "run.json written after every stage; no folder before the first has passed");
        assertEquals(outcome.run(), RunStore.readRun(outcome.store().runFile()));
        String report = Files.readString(outcome.store().runDir().resolve(ReportWriter.REPORT_FILE));
        assertTrue(report.contains("## Where the wall time went"), "the wall time, in the one rendering: " + report);
        assertTrue(outcome.run().timing().profileSeconds() >= 0 && outcome.run().timing().wallSeconds() > 0);
        assertEquals(1, printed.toString(StandardCharsets.UTF_8).split("\\[inferbench\\] report: ", -1).length - 1);
    }

    @Test
    void aFailedStageIsRecordedTheStagesThatNeedItDoNotRunAndTheOthersDo() throws Exception {
        Pipeline.Outcome outcome = new Pipeline(dir, console, new TimeAccount()).run(List.of(start(),
                stage("analysis", List.of("preflight"), true, run -> {
                    throw new IllegalStateException("simulated: a fit that cannot be made");
                }),
                stage("profile", List.of("analysis"), true, run -> {
                    throw new AssertionError("ran without the analysis it needs");
                }),
                stage("serving", List.of("preflight"), true, run -> run.withServing(null))));

        List<StageResult> stages = outcome.run().stages();
        assertEquals(List.of("ok", "failed", "not run", "ok", "ok"), stages.stream().map(StageResult::status).toList());
        assertEquals("java.lang.IllegalStateException: simulated: a fit that cannot be made", stages.get(1).error());
        assertEquals("needs analysis, which did not succeed", stages.get(2).error());
        assertEquals(List.of("analysis", "profile"), outcome.run().failedStages());
        assertEquals(4, outcome.run().cells().size(), "everything measured is kept");
        String log = Files.readString(outcome.store().consoleLog());
        assertTrue(log.contains("analysis FAILED") && log.contains("at io.inferbench"), "the stack trace, in the run's log");
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("[inferbench] profile not run: it needs analysis"));
    }

    @Test
    void aFailureOfTheFirstStageIsThrownAndLeavesNothingBehind() throws Exception {
        BenchmarkException refused = assertThrows(BenchmarkException.class, () -> new Pipeline(dir, console, new TimeAccount())
                .run(List.of(stage("preflight", List.of(), true, run -> {
                    throw new BenchmarkException("simulated: no such model");
                }), stage("sweep", List.of("preflight"), true, run -> {
                    throw new AssertionError("measured after a refusal");
                }))));
        assertEquals("simulated: no such model", refused.getMessage());
        try (var left = Files.list(dir)) {
            assertFalse(left.findAny().isPresent(), "no run folder");
        }
    }
}
