package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.measure.LatencySummary;
import io.inferbench.results.GenerationServing;
import io.inferbench.results.RunResult;
import org.knowm.xchart.XYChart;

import java.awt.Color;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * report.md's generation under load: the answer (which policy holds the SLO at the highest rate), each point's TTFT,
 * TPOT, e2e and queue wait from intended send beside its forecast, the batches formed and what they mean, each policy's
 * boundary; and the plots of p99 TTFT and TPOT against the rate, one colour per policy, the SLO as a line.
 */
public final class GenerationLoadReport {
    private GenerationLoadReport() {
    }

    /** The run's generation under load, or null. */
    static GenerationServing of(RunResult run) {
        return run.serving() == null ? null : run.serving().generation();
    }

    public static List<Charts.ChartFile> charts(RunResult run, Path dir) {
        GenerationServing g = of(run);
        if (g == null || g.points().isEmpty()) {
            return List.of();
        }
        List<Charts.ChartFile> files = new ArrayList<>();
        for (String phase : List.of("TTFT", "TPOT")) {
            XYChart chart = Charts.newChart("Generation under load: " + phase + " p99 (solid) and p50 (dashed) vs rate, per policy",
                    "arrival rate asked (requests/s)", phase + " from intended send (ms)");
            chart.getStyler().setYAxisLogarithmic(true);
            Map<String, List<GenerationServing.Point>> series = new LinkedHashMap<>();
            for (GenerationServing.Point p : g.points()) {
                if (latency(p, phase) != null) {
                    series.computeIfAbsent(p.served().backend() + " " + Text.shortModelName(p.served().model()) + " "
                            + p.served().policy(), k -> new ArrayList<>()).add(p);
                }
            }
            if (series.isEmpty()) {
                continue;
            }
            int i = 0;
            double maxRate = 0;
            for (Map.Entry<String, List<GenerationServing.Point>> s : series.entrySet()) {
                Color color = Charts.PALETTE[i++ % Charts.PALETTE.length];
                List<GenerationServing.Point> points = s.getValue().stream()
                        .sorted(Comparator.comparingDouble(p -> p.load().rateRps())).toList();
                double[] x = points.stream().mapToDouble(p -> p.load().rateRps()).toArray();
                maxRate = Math.max(maxRate, x[x.length - 1]);
                Charts.style(chart.addSeries(s.getKey() + " p99", x, points.stream()
                        .mapToDouble(p -> latency(p, phase).p99Ms()).toArray()), color, true);
                Charts.style(chart.addSeries(s.getKey() + " p50", x, points.stream()
                        .mapToDouble(p -> latency(p, phase).p50Ms()).toArray()), color, false).setLineStyle(Charts.DASHED);
            }
            Double bound = g.points().stream().map(GenerationServing.Point::slo).filter(java.util.Objects::nonNull)
                    .map(slo -> phase.equals("TTFT") ? slo.ttftP99Ms() : slo.tpotP99Ms()).filter(java.util.Objects::nonNull)
                    .findFirst().orElse(null);
            if (bound != null) {
                Charts.style(chart.addSeries("SLO " + phase + " p99", new double[] {0, maxRate}, new double[] {bound, bound}),
                        Color.GRAY, false).setLineStyle(Charts.DASHED);
            }
            files.add(Charts.save(chart, dir, "generation-load-" + phase.toLowerCase(java.util.Locale.ROOT)));
        }
        return files;
    }

    private static LatencySummary latency(GenerationServing.Point p, String phase) {
        return phase.equals("TTFT") ? p.latency().ttftMs() : p.latency().tpotMs();
    }

    /** At the top of the report: which policy holds the SLO at the highest rate. */
    static void answers(Markdown md, RunResult run) {
        md.line("## Answers");
        md.blank();
        for (String line : of(run).answer().split("\n")) {
            md.line("- **Which batching holds the SLO at the highest rate?** " + line);
        }
        md.blank();
    }

    public static void section(Markdown md, RunResult run, List<Charts.ChartFile> charts, Path reportDir) {
        GenerationServing g = of(run);
        md.line("## Generation under load");
        md.blank();
        for (GenerationServing.Conditions c : g.conditions()) {
            md.line(Text.f("%s/%s/%s: prompts %s, %s new tokens, batches of up to %d, static max wait %s ms. %s. Idle "
                            + "penalty: %s.", c.backend(), c.device(), Text.shortModelName(c.model()), c.promptLengths(),
                    c.newTokens(), c.maxBatch(), Text.plain(c.maxWaitMs()), c.scheduler(), c.idlePenalty()));
            md.blank();
        }
        md.line("Every time is from the request's intended send (ms). TPOT is each finished request's mean gap after its "
                + "first token; the forecast runs the same arrivals through the same scheduler with the cells' pass times. "
                + "\"Cache re-laid\" is the time continuous batching's joins and leaves spent copying the running cache into "
                + "its new padded layout: in the gaps of the rows that stayed, and not in the forecast.");
        md.blank();
        md.header(new String[] {"model", "policy", "rate", "purpose", "TTFT p50 / p99", "forecast TTFT p50 / p99",
                "TPOT p50 / p99", "ITL p99", "e2e p99", "queue p99", "step rows", "cache re-laid (ms)",
                "sent / failed / unfinished", "SLO, goodput", "kept up"}, false, false, true);
        for (GenerationServing.Point p : g.points()) {
            GenerationServing.Latencies l = p.latency();
            GenerationServing.Requests r = p.requests();
            md.row(p.served().backend() + "/" + Text.shortModelName(p.served().model()), p.served().policy(),
                    Text.f("%.1f", p.load().rateRps()), p.load().purpose(), pair(l.ttftMs()),
                    p.forecast() == null || p.forecast().ttftP50Ms() == null ? "-"
                            : Text.f("%.2f / %.2f", p.forecast().ttftP50Ms(), p.forecast().ttftP99Ms()),
                    pair(l.tpotMs()), l.itlMs() == null ? "-" : Text.f("%.2f", l.itlMs().p99Ms()),
                    l.e2eMs() == null ? "-" : Text.f("%.2f", l.e2eMs().p99Ms()),
                    l.queueWaitMs() == null ? "-" : Text.f("%.2f", l.queueWaitMs().p99Ms()),
                    p.formed().meanStepRows() == null ? "-" : Text.f("%.2f", p.formed().meanStepRows()),
                    Text.f("%.0f", p.formed().relayoutMs()), r.sent() + " / " + r.failed() + " / " + r.unfinished(),
                    p.slo() == null ? "-" : (p.slo().met() ? "met" : "missed") + Text.f(", %.1f rps", p.slo().goodputRps()),
                    r.overloaded() ? "no: " + r.overload() : "yes");
        }
        md.blank();
        List<String> verdicts = g.points().stream().filter(p -> "point".equals(p.load().purpose()) && p.verdict() != null)
                .map(p -> Text.f("- %.1f requests/s: %s; cache peak %s.", p.load().rateRps(), p.verdict(),
                        GenerationReport.bytes(p.formed().peakCacheBytes()))).toList();
        if (!verdicts.isEmpty()) {
            md.line("Batches formed, on the batch curve and the roofline:");
            md.blank();
            verdicts.forEach(md::line);
            md.blank();
        }
        for (GenerationServing.Boundary b : g.boundaries()) {
            md.line(GenerationLoadTable.boundaryLine(b).replace("[inferbench] ", "- "));
        }
        if (!g.boundaries().isEmpty()) {
            md.blank();
        }
        for (Charts.ChartFile chart : charts) {
            md.line("![" + chart.title() + "](" + reportDir.relativize(chart.png()).toString().replace('\\', '/') + ")");
            md.blank();
        }
    }

    private static String pair(LatencySummary s) {
        return s == null ? "-" : Text.f("%.2f / %.2f", s.p50Ms(), s.p99Ms());
    }
}
