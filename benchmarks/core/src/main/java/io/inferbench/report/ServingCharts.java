package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.RunResult;
import io.inferbench.results.ServingResult;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Latency under load: for each engine, device and model that was served, p50 (solid) and p99 (dashed) from intended
 * start against the arrival rate asked (closed loop: the achieved rate), joined in rate order, one colour per policy,
 * with the SLA as a horizontal line: where a policy's p99 line crosses it is the most load that policy carries. The SLA
 * search's steps are diamonds, not joined: probes around the boundary, not a curve. The legend sits outside the plot.
 */
public final class ServingCharts {
    private ServingCharts() {
    }

    public static List<Charts.ChartFile> write(RunResult run, Path dir) {
        ServingResult serving = run.serving();
        List<Charts.ChartFile> files = new ArrayList<>();
        if (serving == null) {
            return files;
        }
        for (ServingResult.ServingConditions c : serving.conditions()) {
            List<LoadPointResult> points = serving.points().stream()
                    .filter(p -> p.backend().equals(c.backend()) && p.device().equals(c.device()) && p.model().equals(c.model())
                            && p.latencyFromIntendedMs() != null)
                    .sorted(Comparator.comparingDouble(ServingCharts::rate)).toList();
            if (points.isEmpty()) {
                continue;
            }
            Double sla = serving.slaBoundary().stream().findFirst().map(b -> b.slaP99Ms()).orElse(null);
            XYChart chart = Charts.newChart(Text.f("Latency under load, p50 solid, p99 dashed | %s/%s/%s %s, %d threads",
                            c.backend(), c.device(), Text.shortModelName(c.model()), Text.seq(c.seqLen()), c.intraOpThreads()),
                    "arrival rate asked (requests/s; closed loop: achieved)", "latency from intended start (ms)");
            chart.getStyler().setYAxisLogarithmic(true);
            chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
            Map<String, List<LoadPointResult>> byPolicy = new LinkedHashMap<>();
            points.forEach(p -> byPolicy.computeIfAbsent(policyName(p), k -> new ArrayList<>()).add(p));
            int i = 0;
            double minX = Double.MAX_VALUE;
            double maxX = 0;
            for (Map.Entry<String, List<LoadPointResult>> policy : byPolicy.entrySet()) {
                Color color = Charts.PALETTE[i++ % Charts.PALETTE.length];
                List<LoadPointResult> asked = policy.getValue().stream().filter(p -> !"sla-step".equals(p.purpose())).toList();
                List<LoadPointResult> steps = policy.getValue().stream().filter(p -> "sla-step".equals(p.purpose())).toList();
                if (!asked.isEmpty()) {
                    double[] x = asked.stream().mapToDouble(ServingCharts::rate).toArray();
                    Charts.style(chart.addSeries(policy.getKey() + " p50", x,
                            asked.stream().mapToDouble(p -> p.latencyFromIntendedMs().p50Ms()).toArray()), color, true);
                    XYSeries p99 = Charts.style(chart.addSeries(policy.getKey() + " p99", x,
                            asked.stream().mapToDouble(p -> p.latencyFromIntendedMs().p99Ms()).toArray()), color, true);
                    p99.setLineStyle(Charts.DASHED);
                }
                if (!steps.isEmpty()) {
                    // The search's steps, in rate order but not joined: they are probes around the boundary, not a curve.
                    XYSeries probes = chart.addSeries(policy.getKey() + " SLA-search p99", steps.stream()
                            .mapToDouble(ServingCharts::rate).toArray(), steps.stream()
                            .mapToDouble(p -> p.latencyFromIntendedMs().p99Ms()).toArray());
                    probes.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                    probes.setMarker(SeriesMarkers.DIAMOND);
                    probes.setMarkerColor(color);
                }
                for (LoadPointResult p : policy.getValue()) {
                    minX = Math.min(minX, rate(p));
                    maxX = Math.max(maxX, rate(p));
                }
            }
            if (sla != null) {
                XYSeries line = chart.addSeries(Text.f("SLA p99 %s ms", Text.plain(sla)), new double[] {minX, maxX},
                        new double[] {sla, sla});
                line.setLineColor(Color.BLACK);
                line.setLineStyle(Charts.DASHED);
                line.setMarker(SeriesMarkers.NONE);
            }
            files.add(Charts.save(chart, dir, "serving-" + Charts.slug(c.backend() + "-" + c.device()) + "-"
                    + Charts.modelSlug(c.model())));
        }
        files.addAll(SoakCharts.write(serving, dir));
        return files;
    }

    /** A point's place on the x axis: the rate asked for open-loop points, the achieved rate for closed loop. */
    static double rate(LoadPointResult p) {
        return p.rateRps() != null ? p.rateRps() : p.achievedRps();
    }

    static String policyName(LoadPointResult p) {
        return "closed-loop".equals(p.mode()) ? "closed loop" : p.policy();
    }
}
