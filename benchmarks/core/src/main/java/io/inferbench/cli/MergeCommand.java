package io.inferbench.cli;

import io.inferbench.option.PropertyValues;
import io.inferbench.BenchmarkException;
import io.inferbench.analysis.Analysis;
import io.inferbench.report.FleetReport;
import io.inferbench.report.ReportWriter;
import io.inferbench.report.SummaryTable;
import io.inferbench.report.VerdictTable;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.shard.Fleet;
import io.inferbench.shard.Merge;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * {@code merge}: {@code mvn -q -pl benchmarks -am compile exec:java@merge -Druns=A,B,... [-Dout=FOLDER]}. Shards of one plan
 * become one run ({@link Merge}: run.json, report.md, plots), which {@code analyze} reproduces and {@code compare}
 * accepts; runs on different hardware become a fleet report ({@link Fleet}: fleet.md, fleet.json, a plot). Exits 0, or 2
 * with the reason: a missing shard (unless {@code -Dmerge.partial=true}), shards of different plans or rulers, a cell
 * measured twice (unless {@code -Dmerge.keep}), runs that share no cell.
 */
final class MergeCommand {
    static final String USAGE = "merge needs the runs: mvn -q -pl benchmarks -am compile exec:java@merge -Druns=A,B,... "
            + "[-Dout=folder] (run.json files, run folders, or folders of run folders)";

    private MergeCommand() {
    }

    static ExitCode run(Properties p, PrintStream out, PrintStream err) {
        PropertyNames.checkKnown(p);
        String runs = CommandSetting.RUNS.userValue(p).orElse(null);
        if (runs == null) {
            err.println("[inferbench] " + USAGE);
            return ExitCode.BAD_INPUT;
        }
        List<Path> files = Merge.resolve(Arrays.asList(runs.split(",")));
        List<RunResult> read = files.stream().map(RunStore::readRun).toList();
        boolean shards = Merge.allShards(read);
        if (!shards && read.size() < 2) {
            throw new BenchmarkException("-Druns names 1 run that is not a shard: a fleet report needs runs from two or more "
                    + "machines (and a merge, the shards of a plan)");
        }
        out.println("[inferbench] merging " + read.size() + " run(s): " + String.join(", ", read.stream().map(RunResult::runId).toList()));
        Path root = Path.of(Setting.RESULTS.value(p)).toAbsolutePath().normalize();
        if (shards) {
            Merge.Outcome merged = Merge.samePlan(read, Merge.Keep.parse(CommandSetting.MERGE_KEEP.value(p)), PropertyValues.bool(CommandSetting.MERGE_PARTIAL, p),
                    Settings.defaultRegime());
            RunResult run = merged.run();
            Path dir = CommandSetting.OUT.userValue(p).map(o -> Path.of(o).toAbsolutePath().normalize()).orElse(root.resolve(run.runId()));
            try {
                java.nio.file.Files.createDirectories(dir);
            } catch (java.io.IOException e) {
                throw new BenchmarkException("Could not create " + dir + " for the merged run: " + e.getMessage()
                        + ". Point -Dout at a writable folder", e);
            }
            RunStore.writeAtomically(dir.resolve(RunStore.RUN_FILE), o -> io.inferbench.results.Json.mapper().writeValue(o, run));
            SummaryTable.print(run, out);
            Analysis analysis = new Analysis(run.regimeThresholds(), run.fits(), run.seqScaling());
            VerdictTable.print(analysis, out);
            ReportWriter.Written written = ReportWriter.write(run, analysis, dir);
            var parts = run.config().plan().shards();
            out.println(io.inferbench.Text.f("[inferbench] merged %d of %d shard(s) of plan %s: %d of its %d cells%s", parts.size(),
                    parts.get(0).count(), parts.get(0).planHash().substring(0, 12), run.cells().size(),
                    parts.get(0).planCells().size(), merged.missingShards().isEmpty() ? ""
                            : "; MISSING shard(s) " + String.join(", ", merged.missingShards()) + " (cells "
                            + String.join(", ", merged.missingCells()) + ")"));
            out.println("[inferbench] merged run: " + dir.resolve(RunStore.RUN_FILE) + "; report: " + written.report());
            return ExitCode.OK;
        }
        io.inferbench.results.FleetResult fleet = Fleet.of(read, Fleet.prices(CommandSetting.FLEET_PRICE.value(p)));
        Path dir = CommandSetting.OUT.userValue(p).map(o -> Path.of(o).toAbsolutePath().normalize())
                .orElse(root.resolve("fleet-" + RunStore.newRunId(java.time.ZonedDateTime.now())));
        FleetReport.print(fleet, FleetReport.write(fleet, dir), out);
        return ExitCode.OK;
    }
}
