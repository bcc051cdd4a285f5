package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.CellProfile;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunResult;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The roofline of each engine and device: achieved operations per second (FLOPs, and integer operations for int8 products)
 * against arithmetic intensity (operations per byte), log-log in whole decades, with every measured roof drawn (bandwidth
 * times intensity, capped by each precision's peak: float32, and int8 or float16 where measured, from well left of the
 * lowest ridge to right of the data) and each ridge marked; every cell a point, one colour per model and sequence length,
 * the smallest and largest batch of each series labelled {@code seq x batch}. Cells whose work is unknown or whose figures were
 * withheld are left out.
 */
public final class ProfileCharts {
    /** How far right of its point a label's centre sits, in decades. */
    static final double LABEL_OFFSET = 0.035;

    private ProfileCharts() {
    }

    /** A log10 axis value as the value it stands for, at whole decades only (1, 10, 100, 0.1); no label between. */
    static String decade(Double log10) {
        if (Math.abs(log10 - Math.rint(log10)) > 1e-6) {
            return " ";
        }
        return Text.plain(Math.pow(10, Math.rint(log10)));
    }

    public static List<Charts.ChartFile> write(RunResult run, Path dir) {
        ProfileResult profile = run.profile();
        List<Charts.ChartFile> files = new ArrayList<>();
        if (profile == null) {
            return files;
        }
        for (ProfileResult.Calibration peaks : profile.calibrations()) {
            List<CellProfile> cells = profile.cells().stream().filter(c -> c.backend().equals(peaks.backend())
                    && c.device().equals(peaks.device()) && c.achievedFlopsPerSecond() != null && c.arithmeticIntensity() != null).toList();
            if (cells.isEmpty()) {
                continue;
            }
            String date = run.startedAt() == null ? "" : " | " + run.startedAt().substring(0, Math.min(10, run.startedAt().length()));
            XYChart chart = Charts.newChart(Text.f("Roofline | %s on %s, %d threads | memory roof %.1f GB/s%s", peaks.backend(),
                            peaks.device(), peaks.intraOpThreads(), peaks.memoryRoofBytesPerSecond() / 1e9, date),
                    "arithmetic intensity, operations per byte (traffic model; log scale)",
                    "achieved G operations/s, p50 pass (log scale)");
            // Plotted as log10 on linear axes, labelled with the values: XChart places annotations linearly even on a
            // logarithmic axis, so this is what keeps each label next to its point.
            chart.getStyler().setXAxisTickLabelsFormattingFunction(ProfileCharts::decade);
            chart.getStyler().setYAxisTickLabelsFormattingFunction(ProfileCharts::decade);
            double bw = peaks.memoryRoofBytesPerSecond() / 1e9;
            // Every measured roof: float32 always, int8 and float16 where the engine and device ran them.
            Map<String, Double> roofs = new LinkedHashMap<>();
            roofs.put("float32", peaks.peakFlopsPerSecond() / 1e9);
            if (peaks.peakIntegerOpsPerSecond() != null) {
                roofs.put("int8", peaks.peakIntegerOpsPerSecond() / 1e9);
            }
            if (peaks.peakHalfFlopsPerSecond() != null) {
                roofs.put("float16", peaks.peakHalfFlopsPerSecond() / 1e9);
            }
            double lowRidge = roofs.values().stream().mapToDouble(r -> r / bw).min().orElseThrow();
            double highRidge = roofs.values().stream().mapToDouble(r -> r / bw).max().orElseThrow();
            double topRoof = roofs.values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            // The whole roof: from well left of the ridge (where the slope shows) to right of the data, in whole decades.
            double dataMinX = cells.stream().mapToDouble(CellProfile::arithmeticIntensity).min().orElse(lowRidge);
            double dataMaxX = cells.stream().mapToDouble(CellProfile::arithmeticIntensity).max().orElse(highRidge);
            double x0 = Math.floor(Math.log10(Math.min(dataMinX / 2, lowRidge / 30)));
            double x1 = Math.ceil(Math.log10(Math.max(dataMaxX * 2, highRidge * 4)));
            double dataMinY = cells.stream().mapToDouble(c -> c.achievedFlopsPerSecond() / 1e9).min().orElse(topRoof);
            double y0 = Math.floor(Math.log10(Math.min(dataMinY / 2, bw * Math.pow(10, x0))));
            double y1 = Math.ceil(Math.log10(topRoof * 2));
            chart.getStyler().setXAxisMin(x0);
            chart.getStyler().setXAxisMax(x1);
            chart.getStyler().setYAxisMin(y0);
            chart.getStyler().setYAxisMax(y1);
            Color[] roofColors = {Color.BLACK, new Color(0x8B, 0x1A, 0x1A), new Color(0x1A, 0x3A, 0x8B)};
            int r = 0;
            for (Map.Entry<String, Double> roofEntry : roofs.entrySet()) {
                double peak = roofEntry.getValue();
                double ridge = peak / bw;
                Color color = roofColors[r++ % roofColors.length];
                XYSeries roof = chart.addSeries(Text.f("%s roof: %.1f GB/s x intensity, capped at %.1f G/s", roofEntry.getKey(), bw, peak),
                        new double[] {x0, Math.log10(ridge), x1}, new double[] {Math.log10(bw) + x0, Math.log10(peak), Math.log10(peak)});
                roof.setLineColor(color);
                roof.setMarker(SeriesMarkers.NONE);
                XYSeries ridgeLine = chart.addSeries(Text.f("%s ridge %.1f FLOP/byte", roofEntry.getKey(), ridge),
                        new double[] {Math.log10(ridge), Math.log10(ridge)}, new double[] {y0, Math.log10(peak)});
                ridgeLine.setLineColor(color);
                ridgeLine.setLineStyle(Charts.DASHED);
                ridgeLine.setMarker(SeriesMarkers.NONE);
            }
            Map<String, List<CellProfile>> groups = new LinkedHashMap<>();
            cells.forEach(c -> groups.computeIfAbsent(Text.shortModelName(c.model()) + " " + Text.seq(c.seqLen()), k -> new ArrayList<>()).add(c));
            int i = 0;
            for (Map.Entry<String, List<CellProfile>> group : groups.entrySet()) {
                Color color = Charts.PALETTE[i++ % Charts.PALETTE.length];
                List<CellProfile> g = group.getValue();
                XYSeries points = chart.addSeries(group.getKey(), g.stream().mapToDouble(c -> Math.log10(c.arithmeticIntensity())).toArray(),
                        g.stream().mapToDouble(c -> Math.log10(c.achievedFlopsPerSecond() / 1e9)).toArray());
                points.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                points.setMarker(SeriesMarkers.CIRCLE);
                points.setMarkerColor(color);
                // Only each series' smallest and largest batch is labelled: eight labels a series overlap at a glance.
                int fewest = g.stream().mapToInt(CellProfile::batch).min().orElse(0);
                int most = g.stream().mapToInt(CellProfile::batch).max().orElse(0);
                for (CellProfile c : g) {
                    if (c.batch() != fewest && c.batch() != most) {
                        continue;
                    }
                    chart.addAnnotation(new AnnotationText(c.seqLen() + "x" + c.batch(), Math.log10(c.arithmeticIntensity()) + LABEL_OFFSET,
                            Math.log10(c.achievedFlopsPerSecond() / 1e9), false));
                }
            }
            files.add(Charts.save(chart, dir, "roofline-" + Charts.slug(peaks.backend() + "-" + peaks.device())));
        }
        return files;
    }
}
