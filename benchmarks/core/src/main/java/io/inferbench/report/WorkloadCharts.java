package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.RunResult;
import io.inferbench.results.WorkloadResult;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The workload's true lengths as a histogram, with the bucket boundaries drawn on it (and the advisor's best three). */
public final class WorkloadCharts {
    private WorkloadCharts() {
    }

    public static List<Charts.ChartFile> write(RunResult run, Path dir) {
        WorkloadResult w = run.workload();
        List<Charts.ChartFile> files = new ArrayList<>();
        if (w == null) {
            return files;
        }
        XYChart chart = Charts.newChart(Text.f("Request lengths: %d requests; buckets dashed, advised solid | %s", w.requests(),
                shorten(w.source())), "true length (tokens)", "requests");
        int bins = w.lengthHistogram().size();
        double[] x = new double[bins * 2];
        double[] y = new double[bins * 2];
        long highest = 1;
        for (int i = 0; i < bins; i++) {
            WorkloadResult.Bin bin = w.lengthHistogram().get(i);
            x[2 * i] = bin.fromTokens();
            x[2 * i + 1] = bin.toTokens();
            y[2 * i] = bin.requests();
            y[2 * i + 1] = bin.requests();
            highest = Math.max(highest, bin.requests());
        }
        XYSeries histogram = chart.addSeries("requests per " + (bins == 0 ? 0 : w.lengthHistogram().get(0).toTokens()) + " tokens", x, y);
        histogram.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
        histogram.setMarker(SeriesMarkers.NONE);
        histogram.setFillColor(new Color(31, 119, 180, 120));
        histogram.setLineColor(Charts.PALETTE[0]);
        for (int bucket : w.buckets()) {
            XYSeries line = chart.addSeries("bucket " + bucket, new double[] {bucket, bucket}, new double[] {0, highest});
            line.setLineColor(Color.BLACK);
            line.setLineStyle(Charts.DASHED);
            line.setMarker(SeriesMarkers.NONE);
        }
        WorkloadResult.Advisor advisor = w.engines().isEmpty() ? null : w.engines().get(0).advisor();
        if (advisor != null) {
            for (WorkloadResult.Advisor.Option option : advisor.options()) {
                if (option.buckets() != w.buckets().size()) {
                    continue;
                }
                for (int boundary : option.boundaries()) {
                    XYSeries line = chart.addSeries("advised " + boundary, new double[] {boundary, boundary},
                            new double[] {0, highest * 0.9});
                    line.setLineColor(Charts.PALETTE[3]);
                    line.setMarker(SeriesMarkers.NONE);
                }
            }
        }
        files.add(Charts.save(chart, dir, "workload-lengths"));
        return files;
    }

    /** The source, short enough that the whole title fits the chart's width (report.md shows it at 1000 px). */
    static String shorten(String source) {
        return source.length() > 48 ? source.substring(0, 45) + "..." : source;
    }
}
