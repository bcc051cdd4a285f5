package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.results.AgreementResult;
import io.inferbench.results.CellResult;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunResult;
import io.inferbench.results.SlaBoundary;
import io.inferbench.results.WorkloadResult;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * report.md's first section: the decisions a service owner reads the run for, one line each with the evidence it rests
 * on: per series the regime and what to do about it (with the roofline's class beside the slope's), the policy that
 * carries the most load under the SLA, each precision variant's speed-up and agreement, the bucket advice, and the
 * cells that failed. The tables and plots that hold the evidence follow it.
 */
final class AnswersReport {
    private AnswersReport() {
    }

    static void section(Markdown md, RunResult run, Analysis analysis) {
        md.line("## Answers").blank();
        if (run.ab() != null && run.ab().decision() != null) {
            md.line("- **A/B, B against A**: " + run.ab().decision() + " (threshold " + Text.plain(run.ab().thresholdPercent())
                    + "%; ab.md has each cell's interval and what would decide an undecided one).");
        }
        ownCode(run).forEach((series, cells) -> md.line("- " + latency(series, cells)));
        long failed = run.cells().stream().filter(c -> !c.measured()).count();
        if (failed > 0) {
            md.line(Text.f("- **%d cell(s) failed**; every other cell's results are kept (see Risks): %s.", failed,
                    run.cells().stream().filter(c -> !c.measured()).map(CellResult::id).limit(5).toList()));
        }
        if (analysis != null) {
            for (SeriesFit f : analysis.fits()) {
                md.line("- " + series(f, crossCheck(run, f)));
            }
        }
        if (run.serving() != null && !run.serving().slaBoundary().isEmpty()) {
            Map<String, List<SlaBoundary>> byModel = new java.util.LinkedHashMap<>();
            run.serving().slaBoundary().forEach(b -> byModel.computeIfAbsent(b.backend() + "|" + b.device() + "|" + b.model(),
                    k -> new java.util.ArrayList<>()).add(b));
            byModel.values().forEach(boundaries -> md.line("- " + serving(boundaries)));
        }
        if (run.agreement() != null) {
            for (AgreementResult.Pair pair : run.agreement().pairs()) {
                md.line("- " + precision(run.agreement().reference(), pair));
            }
        }
        if (run.workload() != null) {
            for (WorkloadResult.EngineWorkload e : run.workload().engines()) {
                if (e.advisor() != null && !e.advisor().options().isEmpty()) {
                    md.line("- " + buckets(e));
                }
            }
        }
        md.blank();
    }

    /**
     * The measured cells of a user's own code (a target), by series: what a service owner asks first is its p50 and
     * p99 at each batch, and for a target those are otherwise in the fourth section.
     */
    private static Map<String, List<CellResult>> ownCode(RunResult run) {
        Map<String, List<CellResult>> series = new java.util.LinkedHashMap<>();
        run.cells().stream().filter(c -> c.measured() && c.latencyMs() != null && USER_CODE.equals(c.engineFlavor()))
                .sorted(Comparator.comparingInt(CellResult::batch))
                .forEach(c -> series.computeIfAbsent(c.backend() + " | " + c.device() + " | " + Text.seq(c.seqLen()),
                        k -> new java.util.ArrayList<>()).add(c));
        return series;
    }

    /** The engine flavour a target's cells record ({@code TargetSession}). */
    private static final String USER_CODE = "user code";

    private static String latency(String series, List<CellResult> cells) {
        return "**" + series + "**: p50 / p99 " + String.join("; ", cells.stream().map(c -> Text.f("%.3f / %.3f ms at batch %d",
                c.latencyMs().p50Ms(), c.latencyMs().p99Ms(), c.batch())).toList()) + ".";
    }

    /** Which batch size, and memory- or compute-bound: the verdict, its advice, and the numbers it rests on. */
    static String series(SeriesFit f, Optional<ProfileResult.CrossCheck> check) {
        String where = f.backend() + " | " + f.device() + " | " + Text.shortModelName(f.model()) + " | " + Text.seq(f.seqLen());
        // An inconclusive series says why (too few batch sizes, not monotonic, too noisy): the fix depends on it.
        StringBuilder line = new StringBuilder(f.regime() == io.inferbench.analysis.Regime.INCONCLUSIVE
                ? Text.f("**%s**: %s: %s", where, f.verdictLabel(), f.reason())
                : Text.f("**%s**: %s: %s", where, f.verdictLabel(), f.regime().shortAdvice()));
        List<Double> p50 = f.p50Ms();
        // An inconclusive series' reason already gives its numbers.
        if (p50 != null && p50.size() >= 2 && f.regime() != io.inferbench.analysis.Regime.INCONCLUSIVE) {
            line.append(Text.f(" (p50 %.3f ms at batch %d to %.3f ms at batch %d", p50.get(0), f.batches().get(0),
                    p50.get(p50.size() - 1), f.batches().get(f.batches().size() - 1)));
            if (f.relativeMarginalCost() != null) {
                line.append(Text.f(", rho %.2f", f.relativeMarginalCost()));
                if (f.relativeMarginalCostCiLow() != null && f.relativeMarginalCostCiHigh() != null) {
                    line.append(Text.f(" [%.2f, %.2f]", f.relativeMarginalCostCiLow(), f.relativeMarginalCostCiHigh()));
                }
            }
            line.append(")");
        }
        check.ifPresent(c -> {
            Map<Integer, String> byBatch = c.rooflineClassByBatch();
            if (byBatch != null && !byBatch.isEmpty()) {
                int last = byBatch.keySet().stream().max(Integer::compare).orElseThrow();
                line.append(Text.f("; roofline at batch %d: %s", last, byBatch.get(last)));
            }
            if (c.answer() != null) {
                line.append(": ").append(c.answer());
            }
        });
        return line.append(".").toString();
    }

    private static Optional<ProfileResult.CrossCheck> crossCheck(RunResult run, SeriesFit f) {
        if (run.profile() == null || run.profile().crossChecks() == null) {
            return Optional.empty();
        }
        return run.profile().crossChecks().stream().filter(c -> c.backend().equals(f.backend()) && c.device().equals(f.device())
                && c.model().equals(f.model()) && c.seqLen() == f.seqLen()).findFirst();
    }

    /**
     * Which batching policy under the p99 SLA, for one engine, device and model: the one that carries the most load,
     * with its kind of boundary.
     */
    static String serving(List<SlaBoundary> boundaries) {
        SlaBoundary any = boundaries.get(0);
        Optional<SlaBoundary> best = ServingTable.best(boundaries);
        String sla = Text.f("**Batching policy under a p99 SLA of %s ms** (%s, %s, %s)", Text.plain(any.slaP99Ms()), any.backend(),
                any.device(), Text.shortModelName(any.model()));
        if (best.isEmpty()) {
            return Text.f("%s: no policy met it at any rate down to the floor of %.2f requests/s.", sla, any.floorRps());
        }
        SlaBoundary b = best.get();
        return Text.f("%s: **%s** carries the most, %s%.1f requests/s at p99 %.3f ms%s%s.", sla, b.policy(),
                SlaBoundary.LOWER_BOUND.equals(b.boundary()) ? "at least " : "", b.maxRateRps(), b.p99Ms(),
                Boolean.TRUE.equals(b.generatorLimited()) ? "; the load generator, not the model, was the limit there" : "",
                b.predictedToMeasured() == null ? "" : Text.f("; the simulation predicted %.2fx that", b.predictedToMeasured()));
    }

    /** INT8 or not: the speed-up range and whether the outputs stayed within the thresholds at every shape. */
    static String precision(String reference, AgreementResult.Pair pair) {
        String what = Text.f("**%s against %s** (%s, %s)", Text.shortModelName(pair.model()), Text.shortModelName(reference),
                pair.backend(), pair.device());
        if (pair.refusal() != null || pair.shapes().isEmpty()) {
            return what + ": not compared (" + (pair.refusal() == null ? "no shapes" : pair.refusal()) + ").";
        }
        List<AgreementResult.ShapeAgreement> shapes = pair.shapes();
        double low = shapes.stream().filter(s -> s.speedupP50() != null).mapToDouble(AgreementResult.ShapeAgreement::speedupP50)
                .min().orElse(Double.NaN);
        double high = shapes.stream().filter(s -> s.speedupP50() != null).mapToDouble(AgreementResult.ShapeAgreement::speedupP50)
                .max().orElse(Double.NaN);
        long differ = shapes.stream().filter(s -> !s.agrees()).count();
        double minCosine = shapes.stream().mapToDouble(AgreementResult.ShapeAgreement::minCosine).min().orElse(Double.NaN);
        double maxAbs = shapes.stream().mapToDouble(AgreementResult.ShapeAgreement::maxAbsError).max().orElse(Double.NaN);
        String speed = Double.isNaN(low) ? "no speed-up measured" : Text.f("%.2f-%.2fx the reference's speed at p50", low, high);
        return Text.f("%s: %s; %s (smallest cosine %.6f, largest absolute error %.3g).", what, speed,
                differ == 0 ? Text.f("outputs agree at all %d shapes", shapes.size())
                        : Text.f("outputs **DIFFER** at %d of %d shapes", differ, shapes.size()), minCosine, maxAbs);
    }

    /** Which buckets: the advisor's best option against the bucket file, by its priced gain. */
    static String buckets(WorkloadResult.EngineWorkload e) {
        WorkloadResult.Advisor a = e.advisor();
        WorkloadResult.Advisor.Option best = a.options().stream()
                .max(Comparator.comparingDouble(WorkloadResult.Advisor.Option::gainPercentOverCurrent)).orElseThrow();
        return Text.f("**Buckets** (%s, %s, %s): the bucket file %s expects %.3f ms per request; %d bucket(s) at %s would "
                        + "expect %.3f ms (%+.1f%%, priced by the cost model under Real inputs)%s.", e.backend(), e.device(),
                Text.shortModelName(e.model()), a.currentBuckets(), a.currentExpectedMs(), best.buckets(), best.boundaries(),
                best.expectedMs(), best.gainPercentOverCurrent(), best.extrapolatedBoundaries() == null
                        || best.extrapolatedBoundaries().isEmpty() ? "" : "; " + best.extrapolatedBoundaries()
                        + " lie outside the measured lengths, so measure them before relying on it");
    }
}
