package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.ServingResult;
import io.inferbench.results.SoakResult;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A soak over time: each window's p50 (solid) and p99 (dashed) from intended send on the left axis, the resident set at
 * its end on the right, against the window's start. A leak is a rising right-hand line, a drift a rising p50.
 */
final class SoakCharts {
    static final double MIN_RSS_SPAN_MB = 10;

    private SoakCharts() {
    }

    static List<Charts.ChartFile> write(ServingResult serving, Path dir) {
        List<Charts.ChartFile> files = new ArrayList<>();
        if (serving.soak() == null) {
            return files;
        }
        for (SoakResult soak : serving.soak()) {
            List<SoakResult.Window> measured = soak.windows().stream().filter(w -> w.p50Ms() != null).toList();
            if (measured.isEmpty()) {
                continue;
            }
            XYChart chart = Charts.newChart(Text.f("Soak at %.1f requests/s: latency %s, memory %s | %s/%s/%s",
                    soak.rateRps(), soak.latencyTrend().verdict(), soak.memoryTrend().verdict(), soak.backend(),
                    soak.device(), Text.shortModelName(soak.model())), "window start (s)", "latency from intended send (ms)");
            chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
            chart.getStyler().setYAxisMin(0, 0.0);
            double[] x = measured.stream().mapToDouble(SoakResult.Window::startSeconds).toArray();
            Charts.style(chart.addSeries("p50", x, measured.stream().mapToDouble(SoakResult.Window::p50Ms).toArray()),
                    Charts.PALETTE[0], true);
            XYSeries p99 = Charts.style(chart.addSeries("p99", x,
                    measured.stream().mapToDouble(SoakResult.Window::p99Ms).toArray()), Charts.PALETTE[0], true);
            p99.setLineStyle(Charts.DASHED);
            List<SoakResult.Window> read = measured.stream().filter(w -> w.rssMb() != null).toList();
            if (!read.isEmpty()) {
                XYSeries rss = Charts.style(chart.addSeries("resident set (MiB, right)",
                        read.stream().mapToDouble(SoakResult.Window::startSeconds).toArray(),
                        read.stream().mapToDouble(SoakResult.Window::rssMb).toArray()), Charts.PALETTE[1], true);
                rss.setYAxisGroup(1);
                chart.setYAxisGroupTitle(1, "resident set at the window's end (MiB)");
                chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
                // At least 10 MiB from bottom to top: an axis fitted to a flat line would draw noise of 0.1 MiB as swings.
                double low = read.stream().mapToDouble(SoakResult.Window::rssMb).min().orElseThrow();
                double high = read.stream().mapToDouble(SoakResult.Window::rssMb).max().orElseThrow();
                double pad = Math.max(0, MIN_RSS_SPAN_MB - (high - low)) / 2;
                chart.getStyler().setYAxisMin(1, Math.floor(low - pad));
                chart.getStyler().setYAxisMax(1, Math.ceil(high + pad));
            }
            files.add(Charts.save(chart, dir, "soak-" + Charts.slug(soak.backend() + "-" + soak.device()) + "-"
                    + Charts.modelSlug(soak.model())));
        }
        return files;
    }
}
