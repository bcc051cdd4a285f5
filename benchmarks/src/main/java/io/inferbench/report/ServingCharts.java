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
 * start against the achieved rate, one colour per policy, with the SLA as a horizontal line: where a policy's p99 line
 * crosses it is the most load that policy carries.
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
                    .sorted(Comparator.comparingDouble(LoadPointResult::achievedRps)).toList();
            if (points.isEmpty()) {
                continue;
            }
            Double sla = serving.slaBoundary().stream().findFirst().map(b -> b.slaP99Ms()).orElse(null);
            XYChart chart = Charts.newChart(Text.f("Latency from intended start vs achieved rate: p50 solid, p99 dashed | %s on %s,"
                            + " model %s, seq %d | %d intra-op threads | %s", c.backend(), c.device(),
                    Text.shortModelName(c.model()), c.seqLen(), c.intraOpThreads(), date(run)),
                    "achieved rate (requests/s)", "latency from intended start (ms)");
            chart.getStyler().setYAxisLogarithmic(true);
            Map<String, List<LoadPointResult>> byPolicy = new LinkedHashMap<>();
            points.forEach(p -> byPolicy.computeIfAbsent(policyName(p), k -> new ArrayList<>()).add(p));
            int i = 0;
            double minX = Double.MAX_VALUE;
            double maxX = 0;
            for (Map.Entry<String, List<LoadPointResult>> policy : byPolicy.entrySet()) {
                Color color = Charts.PALETTE[i++ % Charts.PALETTE.length];
                List<LoadPointResult> series = policy.getValue();
                double[] x = series.stream().mapToDouble(LoadPointResult::achievedRps).toArray();
                Charts.style(chart.addSeries(policy.getKey() + " p50", x,
                        series.stream().mapToDouble(p -> p.latencyFromIntendedMs().p50Ms()).toArray()), color, true);
                XYSeries p99 = Charts.style(chart.addSeries(policy.getKey() + " p99", x,
                        series.stream().mapToDouble(p -> p.latencyFromIntendedMs().p99Ms()).toArray()), color, true);
                p99.setLineStyle(Charts.DASHED);
                for (double v : x) {
                    minX = Math.min(minX, v);
                    maxX = Math.max(maxX, v);
                }
            }
            if (sla != null) {
                XYSeries line = chart.addSeries(Text.f("SLA p99 %s ms", Text.plain(sla)), new double[] {minX, maxX},
                        new double[] {sla, sla});
                line.setLineColor(Color.BLACK);
                line.setLineStyle(Charts.DASHED);
                line.setMarker(SeriesMarkers.NONE);
            }
            files.add(Charts.save(chart, dir, "serving-" + Charts.slug(c.backend() + "-" + c.device() + "-"
                    + Text.shortModelName(c.model()))));
        }
        return files;
    }

    static String policyName(LoadPointResult p) {
        return "closed-loop".equals(p.mode()) ? "closed loop" : p.policy();
    }

    private static String date(RunResult run) {
        return run.startedAt() == null ? "" : run.startedAt().substring(0, Math.min(10, run.startedAt().length()));
    }
}
