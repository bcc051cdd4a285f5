package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.measure.LatencySummary;
import io.inferbench.results.CellResult;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.RunResult;
import io.inferbench.results.ServingResult;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a user's target spends each call ({@code Stages.begin} marks inside {@code Call.run}): per cell, each stage's
 * time per call and its share of the call's mean, then the part outside every stage, so the rows add up to the call;
 * under serving, each stage's p50 and p99 per request at every load point. The console gets one line per cell; report.md
 * the tables.
 */
public final class StagesReport {
    /** Under serving, a target's stages are nested in the forward pass: {@code forward.NAME}. */
    static final String FORWARD_PART = "forward.";

    private StagesReport() {
    }

    /** Whether any cell of the run has stages of its own: a target's. */
    static boolean applies(RunResult run) {
        return run.cells().stream().anyMatch(c -> c.phases() != null && c.phases().stages() != null);
    }

    /** One line per cell with stages: {@code stage mean ms (share)}, the part outside every stage last. */
    public static void print(RunResult run, PrintStream out) {
        if (!applies(run)) {
            return;
        }
        out.println();
        out.println("Stages of each call (mean ms per call and share of the call's mean; the rows add up to the call):");
        for (CellResult c : run.cells()) {
            if (c.phases() == null || c.phases().stages() == null) {
                continue;
            }
            out.println(Text.f("  %s/%s/%s/%sbatch%d: call %.3f ms; %s; a mark costs %.0f ns", c.backend(), c.device(),
                    Text.shortModelName(c.model()), c.seqLen() == 0 ? "" : "seq" + c.seqLen() + "/", c.batch(), c.latencyMs().meanMs(),
                    String.join(", ", c.phases().stages().stream().map(s -> Text.f("%s %.3f ms (%.0f%%)", s.name(),
                            s.meanMsPerUnit(), shown(s.sharePercent()))).toList()), c.phases().markCostNs()));
        }
    }

    /** report.md's section: a table per series, a row per batch, a column per stage. */
    static void section(Markdown md, RunResult run) {
        md.line("## Stages of the call").blank();
        md.line("Each stage a target marks inside its call (`Stages.begin`), as time per call (its occurrences summed) and "
                + "share of the call's mean, with the part of the call outside every stage last, so a row adds up to the "
                + "call; each stage's own percentiles are in run.json's `cells[].phases.stages`. A mark's own cost, measured "
                + "in the fork JVMs, is in the last column; it is inside the stage it ends.").blank();
        List<CellResult> cells = run.cells().stream().filter(c -> c.phases() != null && c.phases().stages() != null).toList();
        Map<String, List<CellResult>> bySeries = new java.util.LinkedHashMap<>();
        cells.forEach(c -> bySeries.computeIfAbsent(c.backend() + " | " + c.device() + " | " + Text.shortModelName(c.model())
                + " | " + Text.seq(c.seqLen()), k -> new ArrayList<>()).add(c));
        bySeries.forEach((series, seriesCells) -> {
            List<String> names = new ArrayList<>();
            seriesCells.forEach(c -> c.phases().stages().stream().map(CellResult.StageShare::name)
                    .filter(n -> !names.contains(n) && !n.equals(CellResult.UnitPhases.OUTSIDE)).forEach(names::add));
            names.add(CellResult.UnitPhases.OUTSIDE);
            md.line("### " + series).blank();
            List<String> header = new ArrayList<>(List.of("batch", "call mean (ms)"));
            header.addAll(names);
            header.add("mark cost (ns)");
            boolean[] right = new boolean[header.size()];
            java.util.Arrays.fill(right, true);
            md.header(header.toArray(String[]::new), right);
            for (CellResult c : seriesCells) {
                List<String> row = new ArrayList<>(List.of(Integer.toString(c.batch()), Text.f("%.3f", c.latencyMs().meanMs())));
                for (String name : names) {
                    row.add(c.phases().stages().stream().filter(s -> s.name().equals(name)).findFirst()
                            .map(s -> Text.f("%.3f (%.0f%%)", s.meanMsPerUnit(), shown(s.sharePercent()))).orElse("-"));
                }
                row.add(Text.f("%.0f", c.phases().markCostNs()));
                md.row(row.toArray(String[]::new));
            }
            md.blank();
        });
    }

    /** Under serving: each load point's target stages (nested in forward), p50 / p99 per request. */
    static void servingSection(Markdown md, ServingResult serving) {
        List<LoadPointResult> points = serving.points().stream().filter(p -> "point".equals(p.purpose())
                && p.stagesMs().keySet().stream().anyMatch(k -> k.startsWith(FORWARD_PART))).toList();
        if (points.isEmpty()) {
            return;
        }
        List<String> stages = new ArrayList<>();
        points.forEach(p -> p.stagesMs().keySet().stream().filter(k -> k.startsWith(FORWARD_PART) && !stages.contains(k))
                .forEach(stages::add));
        md.line("### The target's stages under load").blank();
        md.line("Each stage the target marked inside its call, p50 / p99 in ms per request, nested in the forward pass (they "
                + "add up to it with the part outside every stage); the request's own prepare (the target's `prepare`) is "
                + "its stage of the table above.").blank();
        List<String> header = new ArrayList<>(List.of("mode", "policy", "rate asked", "forward"));
        stages.forEach(s -> header.add(s.substring(FORWARD_PART.length())));
        boolean[] right = new boolean[header.size()];
        java.util.Arrays.fill(right, 2, right.length, true);
        md.header(header.toArray(String[]::new), right);
        for (LoadPointResult p : points) {
            Map<String, LatencySummary> s = p.stagesMs();
            List<String> row = new ArrayList<>(List.of(p.mode(), "closed-loop".equals(p.mode()) ? p.concurrency() + " client(s)"
                    : p.policy(), p.rateRps() == null ? "-" : Text.f("%.1f", p.rateRps()), pair(s.get("forward"))));
            stages.forEach(name -> row.add(pair(s.get(name))));
            md.row(row.toArray(String[]::new));
        }
        md.blank();
    }

    private static String pair(LatencySummary s) {
        return s == null ? "-" : Text.f("%.3f / %.3f", s.p50Ms(), s.p99Ms());
    }

    /**
     * A share as printed to the nearest percent, without a minus sign on one that rounds to 0: the part outside every
     * stage can read a few microseconds below zero, within the histograms' resolution, when the stages cover the call.
     */
    private static double shown(double percent) {
        return Math.abs(percent) < 0.5 ? 0 : percent;
    }
}
