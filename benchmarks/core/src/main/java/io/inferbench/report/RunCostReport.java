package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.measure.MeasureEnd;
import io.inferbench.measure.WarmupEnd;
import io.inferbench.results.CellFork;
import io.inferbench.results.CellResult;
import io.inferbench.results.DepartedFork;
import io.inferbench.results.ForkJvm;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunTiming;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a run cost and how each number stopped, for {@code report.md}: the fork JVMs with their cold starts, where the
 * wall time went, and per cell the precision reached and the stop reasons. Runs before schema 8 have none of it, and
 * get the per-cell cold start they recorded instead.
 */
final class RunCostReport {
    private RunCostReport() {
    }

    static void section(Markdown md, RunResult run) {
        if (run.forkJvms() != null && !run.forkJvms().isEmpty()) {
            jvms(md, run.forkJvms());
        }
        if (run.timing() != null) {
            timing(md, run.timing());
        }
    }

    private static void jvms(Markdown md, List<ForkJvm> jvms) {
        md.line("## Fork JVMs and cold start");
        md.blank();
        md.line("Each fork JVM's start-up (launch to `main`), engine load, session creation and first pass (at the shape of "
                + "its first cell), measured once per JVM and never in any cell's results; medians over the JVMs of each engine, "
                + "device and model.");
        md.blank();
        md.line("| backend | device | model | JVMs | cells per JVM | JVM start | engine load | session create | first pass | failed |");
        md.line("|---|---|---|---:|---:|---:|---:|---:|---:|---:|");
        Map<String, List<ForkJvm>> byModel = jvms.stream().collect(Collectors.groupingBy(
                j -> j.backend() + " | " + j.device() + " | " + Text.shortModelName(j.model()), TreeMap::new, Collectors.toList()));
        byModel.forEach((key, list) -> md.line("| " + key + " | " + list.size() + " | "
                + Text.f("%.0f", list.stream().mapToInt(j -> j.cells().size()).average().orElse(0)) + " | "
                + ms(median(list.stream().map(ForkJvm::jvmStartMs).toList())) + " | "
                + ms(median(list.stream().map(ForkJvm::engineLoadMs).toList())) + " | "
                + ms(median(list.stream().map(ForkJvm::sessionCreateMs).toList())) + " | "
                + ms(median(list.stream().map(ForkJvm::firstInferenceMs).toList())) + " | "
                + list.stream().filter(j -> j.exitCode() != 0 && !j.stoppedAsSlow()).count() + " |"));
        md.blank();
    }

    private static void timing(Markdown md, RunTiming t) {
        md.line("## Where the wall time went");
        md.blank();
        md.line(Text.f("Measured passes were %.0f%% of the sweep and %.0f%% of the run's wall time (the sweep JVM's, from "
                + "its start to its last file; Maven's own start and compilation come before it).", 100 * t.timedShareOfSweep(),
                100 * t.timedShareOfWall()));
        md.blank();
        md.line("| part | seconds | share of the wall |");
        md.line("|---|---:|---:|");
        row(md, "preflight (checks, real passes at the smallest and largest shape)", t.preflightSeconds(), t);
        row(md, "sweep: measured passes (the exact sum of their latencies)", t.measuredPassesSeconds(), t);
        row(md, "sweep: first pass at each shape and warm-up", t.warmupSeconds(), t);
        row(md, "sweep: " + t.jvmStarts() + " fork JVM start(s), launch to main", t.jvmStartSeconds(), t);
        row(md, "sweep: engine load and session creation", t.engineAndSessionSeconds(), t);
        row(md, "sweep: the rest (stop-rule checks, JMH around each cell, writing results, exits)", t.sweepOverheadSeconds(), t);
        row(md, "profile: peaks, fixed costs, per-cell profiles", t.profileSeconds(), t);
        row(md, "agreement", t.agreementSeconds(), t);
        row(md, "workload", t.workloadSeconds(), t);
        row(md, "serving", t.servingSeconds(), t);
        row(md, "analysis, tables, plots and report", t.reportSeconds(), t);
        row(md, "other", t.otherSeconds(), t);
        row(md, "**wall**", t.wallSeconds(), t);
        md.blank();
    }

    private static void row(Markdown md, String part, double seconds, RunTiming t) {
        md.line(Text.f("| %s | %.1f | %.0f%% |", part, seconds, t.wallSeconds() > 0 ? 100 * seconds / t.wallSeconds() : 0));
    }

    /** The widest fork interval of the cell's p50, in percent, or "-" when none was computed. */
    static String widestInterval(CellResult c) {
        if (c.forkRuns() == null) {
            return "-";
        }
        return c.forkRuns().stream().map(f -> f.measurement().p50HalfWidthPercent()).filter(java.util.Objects::nonNull)
                .max(Double::compare).map(w -> Text.f("%.1f%%", w)).orElse("-");
    }

    /** How the cell's forks stopped: "3 precise", "2 precise, 1 time cap"; warm-up caps named too. */
    static String stops(CellResult c) {
        if (c.forkRuns() == null) {
            return "fixed count";
        }
        Map<String, Long> counts = c.forkRuns().stream().collect(Collectors.groupingBy(f -> f.measurement().end().label(),
                TreeMap::new, Collectors.counting()));
        String stops = counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
        long warmupCapped = c.forkRuns().stream().filter(f -> f.warmup().end() == WarmupEnd.TIME_CAP).count();
        return warmupCapped == 0 ? stops : stops + "; warm-up capped in " + warmupCapped;
    }

    /** The cell's first pass at its shape: the median over forks, or the first fork's cold start in older runs. */
    static String firstPass(CellResult c) {
        if (c.forkRuns() != null) {
            Double median = median(c.forkRuns().stream().map(CellFork::firstPassMs).toList());
            return ms(median);
        }
        return c.coldStarts() == null || c.coldStarts().isEmpty() ? "-"
                : Text.f("%.2f ms (session %.1f ms)", c.coldStarts().get(0).firstInferenceMs(), c.coldStarts().get(0).sessionCreateMs());
    }

    /** The caveats of cells whose warm-up or measurement reached its cap. */
    static List<String> capRisks(RunResult run) {
        List<String> risks = new ArrayList<>();
        List<String> warmupCapped = new ArrayList<>();
        List<String> stopCapped = new ArrayList<>();
        for (CellResult c : run.cells()) {
            if (!c.measured() || c.forkRuns() == null) {
                continue;
            }
            if (c.forkRuns().stream().anyMatch(f -> f.warmup().end() == WarmupEnd.TIME_CAP)) {
                warmupCapped.add("`" + c.id() + "`");
            }
            if (c.forkRuns().stream().anyMatch(f -> f.measurement().end() == MeasureEnd.TIME_CAP)) {
                stopCapped.add("`" + c.id() + "`");
            }
        }
        if (!warmupCapped.isEmpty()) {
            risks.add("Warm-up reached its cap before latency settled and the JIT was quiet in some fork of " + String.join(", ", warmupCapped)
                    + ": their early measured passes may still hold a transient (raise -Dbench.warmupCapSeconds).");
        }
        List<String> departed = new ArrayList<>();
        for (CellResult c : run.cells()) {
            if (c.departedForks() != null) {
                c.departedForks().forEach(d -> departed.add(Text.f("`%s` fork %d (p50 %.3f ms, x%.2f the kept forks' median%s)",
                        c.id(), d.fork().round(), d.p50Ms(), d.ratio(),
                        DepartedFork.DOUBTED.equals(d.reason()) ? "; doubted: a sibling departed and its fresh JVM agreed" : "")));
            }
        }
        List<String> stopped = run.forkJvms() == null ? List.of() : run.forkJvms().stream().filter(ForkJvm::stoppedAsSlow)
                .map(j -> j.backend() + " round " + j.round() + " (" + j.error().substring(ForkJvm.STOPPED_AS_SLOW.length()) + ")")
                .toList();
        if (!stopped.isEmpty()) {
            risks.add("Fork JVMs stopped part-way as slow, their remaining cells run in a fresh JVM: " + String.join("; ", stopped)
                    + ".");
        }
        if (!departed.isEmpty()) {
            Double factor = run.config().rules().forkDeparture();
            risks.add("Forks that departed from their siblings" + (factor == null ? "" : " by more than x"
                    + Text.plain(factor)) + " were measured again in a fresh JVM, and so were the siblings of a departed fork "
                    + "whose fresh JVM agreed with it (doubted); none of them is in the numbers: "
                    + String.join(", ", departed) + ". A slow JVM is the machine's or the engine's state, not the cell's "
                    + "steady state; the departed measurements are in run.json's `departedForks`.");
        }
        if (!stopCapped.isEmpty()) {
            risks.add("Measurement reached its cap before the p50's interval was within the precision in some fork of "
                    + String.join(", ", stopCapped) + ": the precision reached is in the ± p50 column (raise "
                    + "-Dbench.measureCapSeconds, or accept it: fork-to-fork spread, not these intervals, limits a comparison).");
        }
        return risks;
    }

    private static Double median(List<Double> values) {
        double[] v = values.stream().filter(x -> x != null && !x.isNaN()).mapToDouble(Double::doubleValue).sorted().toArray();
        if (v.length == 0) {
            return null;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static String ms(Double value) {
        return value == null ? "-" : Text.f("%.1f ms", value);
    }
}
