package io.inferbench.shard;

import io.inferbench.BenchmarkException;
import io.inferbench.cli.Settings;
import io.inferbench.compare.SameRuler;
import io.inferbench.pipeline.TestRuns;
import io.inferbench.report.FleetReport;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.runner.Cell;
import io.inferbench.runner.InProcessForkExecutor;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TestOptions;
import io.inferbench.sweep.ForwardKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Shards of a plan, their merge, and a fleet of two labelled machines. */
class ShardTest {
    @TempDir
    Path dir;

    private Properties plan() {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.seq", "8,16");
        p.setProperty("bench.batch", "1,2,3");
        p.setProperty("bench.forks", "2");
        return p;
    }

    @Test
    void aShardIsIOfN() throws Exception {
        assertEquals(new Shard(2, 3), Shard.parse(" 2/3 "));
        for (String bad : List.of("0/2", "3/2", "2", "a/b", "1/0")) {
            BenchmarkException e = assertThrows(BenchmarkException.class, () -> Shard.parse(bad), bad);
            assertTrue(e.getMessage().contains("-Dbench.shard=") && e.getMessage().contains("1/"), e.getMessage());
        }
    }

    /** Every cell in exactly one part, the same parts on every call, balanced by predicted cost, cells of a model together. */
    @Test
    void thePartitionIsDeterministicCompleteAndBalanced() throws Exception {
        Properties p = plan();
        p.setProperty("bench.seq", "64,256,512");
        p.setProperty("bench.batch", "1,2,3,4,5,6,7,8");
        p.remove("bench.warmup");
        p.remove("bench.iterations");
        SweepOptions options = Settings.sweep(p);
        List<Cell> plan = Cell.plan(options, new ForwardKind());
        for (int n = 1; n <= 5; n++) {
            List<List<Cell>> parts = ShardPlan.partition(plan, n, options.rules().measurePolicy());
            assertEquals(parts, ShardPlan.partition(plan, n, options.rules().measurePolicy()), "deterministic");
            Set<Cell> seen = new HashSet<>();
            parts.forEach(seen::addAll);
            assertEquals(plan.size(), parts.stream().mapToInt(List::size).sum(), "each cell once");
            assertEquals(new HashSet<>(plan), seen);
            double[] load = parts.stream().mapToDouble(part -> part.stream().mapToDouble(c -> ShardPlan.cost(c, options.rules().measurePolicy()))
                    .sum()).toArray();
            double max = java.util.Arrays.stream(load).max().orElseThrow();
            double total = java.util.Arrays.stream(load).sum();
            double biggest = plan.stream().mapToDouble(c -> ShardPlan.cost(c, options.rules().measurePolicy())).max().orElseThrow();
            assertTrue(max <= total / n + biggest + ShardPlan.JVM_SECONDS, "balanced within one cell: " + java.util.Arrays.toString(load));
        }
        assertTrue(ShardPlan.cost(new Cell("onnxruntime", "cpu", "tiny", 512, 8), options.rules().measurePolicy())
                >= ShardPlan.cost(new Cell("onnxruntime", "cpu", "tiny", 64, 1), options.rules().measurePolicy()), "a larger cell costs no less");
    }

    @Test
    void thePlanHashNamesThePlanAndItsSettings() throws Exception {
        SweepOptions a = Settings.sweep(plan());
        List<Cell> cells = Cell.plan(a, new ForwardKind());
        assertEquals(ShardPlan.hash(cells, 2, a), ShardPlan.hash(cells, 2, Settings.sweep(plan())));
        Properties threads = plan();
        threads.setProperty("bench.threads", "2");
        assertNotEquals(ShardPlan.hash(cells, 2, a), ShardPlan.hash(cells, 2, Settings.sweep(threads)));
        assertNotEquals(ShardPlan.hash(cells, 2, a), ShardPlan.hash(cells, 3, a));
    }

    @Test
    void aShardRefusesWhatWouldMakeItsPartsIncomparable() throws Exception {
        Properties noThreads = plan();
        noThreads.remove("bench.threads");
        noThreads.setProperty("bench.shard", "1/2");
        String message = assertThrows(BenchmarkException.class, () -> Settings.shard(noThreads)).getMessage();
        assertTrue(message.contains("needs -Dbench.threads"), message);
        Properties serving = plan();
        serving.setProperty("bench.shard", "1/2");
        serving.setProperty("bench.rate", "100");
        message = assertThrows(BenchmarkException.class, () -> Settings.shard(serving)).getMessage();
        assertTrue(message.contains("-Dbench.rate cannot be used with -Dbench.shard"), message);
        Properties tooMany = plan();
        tooMany.setProperty("bench.shard", "7/7");
        SweepOptions options = Settings.sweep(tooMany);
        message = assertThrows(BenchmarkException.class, () -> ShardPlan.info(Cell.plan(options, new ForwardKind()), Settings.shard(tooMany), options)).getMessage();
        assertTrue(message.contains("has no cell") && message.contains("use at most 6 shards"), message);
    }

    private RunResult sweep(Properties p) throws Exception {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return TestRuns.sweep(p, new InProcessForkExecutor(), quiet).run();
    }

    private RunResult shard(int i, int n) throws Exception {
        Properties p = plan();
        p.setProperty("bench.shard", i + "/" + n);
        return sweep(p);
    }

    /**
     * Two shards merged hold exactly the plan's cells, in plan order, with the fits and verdicts analyze finds on the merged
     * run; compare takes it against an unsharded run of the plan as the same ruler. A missing shard is refused, naming it.
     */
    @Test
    void twoShardsMergeIntoThePlansRun() throws Exception {
        RunResult one = shard(1, 2);
        RunResult two = shard(2, 2);
        assertEquals(one.config().plan().shard().planHash(), two.config().plan().shard().planHash());
        assertEquals(6, one.cells().size() + two.cells().size());
        Merge.Outcome merged = Merge.samePlan(List.of(two, one), Merge.Keep.REFUSE, false, Settings.defaultRegime());
        RunResult run = merged.run();
        assertEquals(one.config().plan().shard().planCells(), run.cells().stream().map(CellResult::id).toList(), "the plan's cells, in order");
        assertTrue(run.cells().stream().allMatch(CellResult::measured));
        assertNull(run.config().plan().shard());
        assertEquals(List.of(1, 2), run.config().plan().shards().stream().map(s -> s.index()).toList());
        assertEquals(List.of(one.runId(), two.runId()), run.config().plan().shards().stream().map(s -> s.runId()).toList());
        assertEquals(one.forkJvms().size() + two.forkJvms().size(), run.forkJvms().size());

        Path file = dir.resolve("merged/run.json");
        Files.createDirectories(file.getParent());
        RunStore.writeAtomically(file, o -> io.inferbench.results.Json.mapper().writeValue(o, run));
        var analyzed = io.inferbench.cli.AnalyzeCommand.analyze(file, dir.resolve("merged"), new Properties(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(List.of(), analyzed.differences(), "analyze reproduces the merged run's fits and verdicts");
        assertEquals(run.fits(), analyzed.analysis().fits());

        RunResult whole = sweep(plan());
        SameRuler.Check check = SameRuler.check(whole, run);
        assertTrue(check.comparable(), "the merged run is the same ruler as an unsharded run: " + check.incomparable());

        String message = assertThrows(BenchmarkException.class, () -> Merge.samePlan(List.of(one), Merge.Keep.REFUSE, false, Settings.defaultRegime()))
                .getMessage();
        assertTrue(message.contains("Shard(s) 2/2") && message.contains("missing") && message.contains("-Dmerge.partial=true"), message);
        Merge.Outcome partial = Merge.samePlan(List.of(one), Merge.Keep.REFUSE, true, Settings.defaultRegime());
        assertEquals(List.of("2/2"), partial.missingShards());
        assertEquals(two.cells().stream().map(CellResult::id).toList(), partial.missingCells());

        message = assertThrows(BenchmarkException.class, () -> Merge.samePlan(List.of(one, two, one), Merge.Keep.REFUSE, false, Settings.defaultRegime()))
                .getMessage();
        assertTrue(message.contains("measured by two shards") && message.contains("-Dmerge.keep"), message);
        assertEquals(6, Merge.samePlan(List.of(one, two, one), Merge.Keep.LAST, false, Settings.defaultRegime()).run().cells().size());
        assertThrows(BenchmarkException.class, () -> Merge.allShards(List.of(one, whole)), "a shard and a whole run do not mix");
    }

    /** Two machines by label: the shared cells side by side, and with prices the cost column and the cheapest. */
    @Test
    void twoLabelledRunsMakeAFleetReportWithACostColumn() throws Exception {
        List<RunResult> runs = new ArrayList<>();
        for (String label : List.of("small", "large")) {
            Properties p = plan();
            p.setProperty("bench.hostLabel", label);
            runs.add(sweep(p));
        }
        io.inferbench.results.FleetResult fleet = Fleet.of(runs, Fleet.prices("small=0.10,large=0.40"));
        assertEquals(List.of("small", "large"), fleet.hosts().stream().map(io.inferbench.results.FleetResult.Host::label).toList());
        assertEquals(6, fleet.cells().size());
        io.inferbench.results.FleetResult.Host small = fleet.hosts().get(0);
        assertEquals(0.10 / (small.bestSamplesPerSecond() * 3600) * 1e6, small.costPerMillionSamples(), 1e-12);
        assertTrue(fleet.cheapest() != null && fleet.costBasis().startsWith("cost per million samples"), fleet.toString());
        var written = FleetReport.write(fleet, dir.resolve("fleet"));
        String md = Files.readString(written.markdown());
        assertTrue(md.contains("| machine | identity | run | devices | price per hour |") && md.contains("cost per million samples"), md);
        assertTrue(md.contains("**Cheapest: " + fleet.cheapest() + "**"), md);
        assertTrue(Files.size(written.chart().png()) > 1000);
        assertEquals(fleet, io.inferbench.results.Json.mapper().readValue(written.json().toFile(), io.inferbench.results.FleetResult.class));

        String message = assertThrows(BenchmarkException.class, () -> Fleet.of(List.of(runs.get(0), runs.get(0)), Map.of()))
                .getMessage();
        assertTrue(message.contains("-Dbench.hostLabel"), message);
        message = assertThrows(BenchmarkException.class, () -> Fleet.prices("small=free")).getMessage();
        assertTrue(message.contains("NAME=PRICE"), message);
    }
}
