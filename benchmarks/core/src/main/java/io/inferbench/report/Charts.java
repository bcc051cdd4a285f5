package io.inferbench.report;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.results.AbSection;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The run's plots, rendered headless with XChart as PNG (BitmapEncoder) and SVG (VectorGraphics2D), one set per
 * (backend, device, model):
 * <ul>
 *   <li>{@code latency-*}: p50 against batch, one line per seq bucket, with a p90-p99 band;</li>
 *   <li>{@code throughput-*}: samples/s against batch, one line per seq bucket;</li>
 *   <li>{@code distribution-*}: the latency distribution of each seq bucket's cell at the largest batch, as a
 *       percentile plot on a log axis of 1/(1 - p), p0 to p99.99, in the style of HdrHistogram's plotter.</li>
 * </ul>
 * Every title carries the conditions: backend, device, model, threads, passes per cell and the run's date.
 */
public final class Charts {
    public static final int WIDTH = 1000;
    public static final int HEIGHT = 600;
    static final Color[] PALETTE = {
        new Color(31, 119, 180), new Color(255, 127, 14), new Color(44, 160, 44), new Color(214, 39, 40),
        new Color(148, 103, 189), new Color(140, 86, 75), new Color(227, 119, 194), new Color(127, 127, 127)};
    private static final double MAX_PERCENTILE = 99.99;
    static final java.awt.BasicStroke DASHED = new java.awt.BasicStroke(2f, java.awt.BasicStroke.CAP_BUTT,
            java.awt.BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);

    /** One written chart: its title and the PNG and SVG files. */
    public record ChartFile(String title, Path png, Path svg) {
    }

    private Charts() {
    }

    /** The batch-scaling charts of every (engine, device, model), each latency line labelled with its series' verdict. */
    public static List<ChartFile> write(RunResult run, List<io.inferbench.analysis.SeriesFit> fits, Path dir) {
        System.setProperty("java.awt.headless", "true");
        List<ChartFile> files = new ArrayList<>();
        Map<SeriesKey, io.inferbench.analysis.SeriesFit> verdicts = new java.util.HashMap<>();
        if (fits != null) {
            fits.forEach(f -> verdicts.put(f.series(), f));
        }
        for (List<CellResult> cells : groups(run).values()) {
            CellResult any = cells.get(0);
            String slug = slug(any.backend() + "-" + any.device()) + "-" + modelSlug(any.model());
            String conditions = conditions(run, cells);
            files.add(save(latencyChart(cells, conditions, verdicts), dir, "latency-" + slug));
            files.add(save(throughputChart(cells, conditions), dir, "throughput-" + slug));
            files.add(save(distributionChart(cells, conditions), dir, "distribution-" + slug));
        }
        return files;
    }

    /**
     * The comparison's overlay: p50 against batch for baseline (dashed) and candidate (solid) on the same axes,
     * one colour per seq bucket, one chart per (backend, device, model) that both runs measured.
     */
    public static List<ChartFile> writeOverlay(RunResult baseline, RunResult candidate, Path dir) {
        System.setProperty("java.awt.headless", "true");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BenchmarkException("Could not create " + dir + ": " + e + ". Choose a writable output folder", e);
        }
        Map<SeriesKey.EngineModel, List<CellResult>> base = groups(baseline);
        Map<SeriesKey.EngineModel, List<CellResult>> cand = groups(candidate);
        List<ChartFile> files = new ArrayList<>();
        for (Map.Entry<SeriesKey.EngineModel, List<CellResult>> group : base.entrySet()) {
            List<CellResult> other = cand.get(group.getKey());
            if (other == null) {
                continue;
            }
            CellResult any = group.getValue().get(0);
            XYChart chart = newChart("p50: baseline dashed, candidate solid | " + conditions(candidate, cand.get(group.getKey())),
                    "batch size (samples)", "p50 latency per pass (ms)");
            int i = 0;
            Map<Integer, List<CellResult>> candBySeq = bySeq(other);
            for (Map.Entry<Integer, List<CellResult>> seq : bySeq(group.getValue()).entrySet()) {
                Color color = PALETTE[i++ % PALETTE.length];
                XYSeries b = style(chart.addSeries(Text.seq(seq.getKey()) + " baseline", values(seq.getValue(), CellResult::batch),
                        values(seq.getValue(), c -> c.latencyMs().p50Ms())), color, false);
                b.setLineStyle(DASHED);
                List<CellResult> candSeq = candBySeq.get(seq.getKey());
                if (candSeq != null) {
                    style(chart.addSeries(Text.seq(seq.getKey()) + " candidate", values(candSeq, CellResult::batch),
                            values(candSeq, x -> x.latencyMs().p50Ms())), color, true);
                }
            }
            files.add(save(chart, dir, "compare-" + slug(any.backend() + "-" + any.device()) + "-" + modelSlug(any.model())));
        }
        return files;
    }

    /**
     * An A/B run's plots ({@code ab.md}): the change of each pair's p50, B / A - 1, over the pairs in time order, one line
     * per cell, beside A's own p50 against its first pair (the machine's drift, which the pairs cancel); and p50 against
     * batch for A (dashed) and B (solid) on one chart, one colour per seq bucket.
     *
     * @param a        A's cells, as measured in the same run
     * @param b        B's
     * @param cells    each cell's pairs
     * @param subjects what the charts' titles call A and B, with the conditions
     */
    public static List<ChartFile> writeAb(List<CellResult> a, List<CellResult> b, List<AbSection.CellPairs> cells,
                                          String subjects, Path dir) {
        System.setProperty("java.awt.headless", "true");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BenchmarkException("Could not create " + dir + ": " + e + ". Choose a writable output folder", e);
        }
        List<ChartFile> files = new ArrayList<>();
        XYChart drift = newChart("p50 per pair: B / A - 1 (solid), A against its first pair (dashed) | " + subjects,
                "pair (in time order)", "change (%)");
        int i = 0;
        for (AbSection.CellPairs cell : cells) {
            if (cell.pairs().isEmpty()) {
                continue;
            }
            Color color = PALETTE[i++ % PALETTE.length];
            double[] x = cell.pairs().stream().mapToDouble(AbSection.Pair::pair).toArray();
            double firstA = cell.pairs().get(0).aP50Ms();
            String name = Text.seq(cell.seqLen()) + " batch " + cell.batch();
            style(drift.addSeries(name + ": B/A", x, cell.pairs().stream().mapToDouble(p -> 100 * (p.bP50Ms() / p.aP50Ms() - 1))
                    .toArray()), color, true);
            style(drift.addSeries(name + ": A drift", x, cell.pairs().stream().mapToDouble(p -> 100 * (p.aP50Ms() / firstA - 1))
                    .toArray()), color, false).setLineStyle(DASHED);
        }
        if (i > 0) {
            files.add(save(drift, dir, "ab-pairs"));
        }
        Map<SeriesKey.EngineModel, List<CellResult>> byEngine = b.stream().filter(CellResult::measured)
                .collect(Collectors.groupingBy(c -> c.series().engineModel(), LinkedHashMap::new, Collectors.toList()));
        List<CellResult> aMeasured = a.stream().filter(CellResult::measured).toList();
        for (List<CellResult> bCells : byEngine.values()) {
            CellResult any = bCells.get(0);
            XYChart chart = newChart("p50: A dashed, B solid | " + subjects, "batch size (samples)", "p50 latency per pass (ms)");
            int k = 0;
            for (Map.Entry<Integer, List<CellResult>> seq : bySeq(bCells).entrySet()) {
                Color color = PALETTE[k++ % PALETTE.length];
                List<CellResult> aSeq = bySeq(aMeasured.stream().filter(c -> c.backend().equals(any.backend())
                        && c.device().equals(any.device())).toList()).get(seq.getKey());
                if (aSeq != null) {
                    style(chart.addSeries(Text.seq(seq.getKey()) + " A", values(aSeq, CellResult::batch),
                            values(aSeq, c -> c.latencyMs().p50Ms())), color, false).setLineStyle(DASHED);
                }
                style(chart.addSeries(Text.seq(seq.getKey()) + " B", values(seq.getValue(), CellResult::batch),
                        values(seq.getValue(), c -> c.latencyMs().p50Ms())), color, true);
            }
            files.add(save(chart, dir, "ab-batch-" + slug(any.backend() + "-" + any.device())));
        }
        return files;
    }

    private static Map<SeriesKey.EngineModel, List<CellResult>> groups(RunResult run) {
        return run.cells().stream().filter(CellResult::measured)
                .collect(Collectors.groupingBy(c -> c.series().engineModel(), LinkedHashMap::new, Collectors.toList()));
    }

    /** The chart's conditions: engine, device, model, threads, the measured passes per cell (a range: each cell stops when precise), the date. */
    static String conditions(RunResult run, List<CellResult> cells) {
        CellResult cell = cells.get(0);
        String date = run.startedAt() == null ? "" : run.startedAt().substring(0, Math.min(10, run.startedAt().length()));
        long fewest = cells.stream().mapToLong(CellResult::measuredPasses).min().orElse(0);
        long most = cells.stream().mapToLong(CellResult::measuredPasses).max().orElse(0);
        return Text.f("%s on %s, model %s | %d threads, %s passes/cell | %s", cell.backend(), cell.device(),
                Text.shortModelName(cell.model()), cell.intraOpThreads(), fewest == most ? Long.toString(most) : fewest + "-" + most, date);
    }

    private static Map<Integer, List<CellResult>> bySeq(List<CellResult> cells) {
        return cells.stream().sorted(Comparator.comparingInt(CellResult::seqLen).thenComparingInt(CellResult::batch))
                .collect(Collectors.groupingBy(CellResult::seqLen, LinkedHashMap::new, Collectors.toList()));
    }

    static XYChart newChart(String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setAntiAlias(true);
        return chart;
    }

    /**
     * p50 against batch per sequence length, with the p90-p99 band; each p50 line's legend names its verdict (regime and
     * rho, the marginal cost of a sample relative to one at the smallest batch) where the series has one.
     */
    static XYChart latencyChart(List<CellResult> cells, String conditions, Map<SeriesKey, io.inferbench.analysis.SeriesFit> verdicts) {
        XYChart chart = newChart("Latency vs batch: p50, band p90-p99 | " + conditions, "batch size (samples)", "latency per pass (ms)");
        int i = 0;
        for (Map.Entry<Integer, List<CellResult>> seq : bySeq(cells).entrySet()) {
            Color color = PALETTE[i++ % PALETTE.length];
            List<CellResult> series = seq.getValue();
            double[] batches = values(series, CellResult::batch);
            double[] bandX = new double[batches.length * 2];
            double[] bandY = new double[batches.length * 2];
            for (int j = 0; j < batches.length; j++) {
                bandX[j] = batches[j];
                bandY[j] = series.get(j).latencyMs().p99Ms();
                bandX[bandX.length - 1 - j] = batches[j];
                bandY[bandY.length - 1 - j] = series.get(j).latencyMs().p90Ms();
            }
            XYSeries band = chart.addSeries(Text.seq(seq.getKey()) + " p90-p99", bandX, bandY);
            band.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
            band.setFillColor(new Color(color.getRed(), color.getGreen(), color.getBlue(), 60));
            band.setLineColor(new Color(color.getRed(), color.getGreen(), color.getBlue(), 0));
            band.setMarker(SeriesMarkers.NONE);
            band.setShowInLegend(false);
            io.inferbench.analysis.SeriesFit fit = verdicts.get(series.get(0).series());
            String verdict = fit == null ? "" : ": " + fit.verdictLabel() + (fit.relativeMarginalCost() == null ? ""
                    : Text.f(" (rho %.2f)", fit.relativeMarginalCost()));
            style(chart.addSeries(Text.seq(seq.getKey()) + " p50" + verdict, batches, values(series, c -> c.latencyMs().p50Ms())),
                    color, true);
        }
        return chart;
    }

    static XYChart throughputChart(List<CellResult> cells, String conditions) {
        XYChart chart = newChart("Throughput vs batch | " + conditions, "batch size (samples)", "throughput (samples/s, batch / mean latency)");
        int i = 0;
        for (Map.Entry<Integer, List<CellResult>> seq : bySeq(cells).entrySet()) {
            Color color = PALETTE[i++ % PALETTE.length];
            style(chart.addSeries(Text.seq(seq.getKey()), values(seq.getValue(), CellResult::batch),
                    values(seq.getValue(), CellResult::samplesPerSecond)), color, true);
        }
        return chart;
    }

    static XYChart distributionChart(List<CellResult> cells, String conditions) {
        int largestBatch = cells.stream().mapToInt(CellResult::batch).max().orElseThrow();
        XYChart chart = newChart("Latency distribution at batch " + largestBatch + " | " + conditions,
                "percentile (log scale of 1/(1-p))", "latency per pass (ms)");
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setXAxisMin(1.0);
        chart.getStyler().setXAxisMax(1 / (1 - MAX_PERCENTILE / 100));
        chart.setCustomXAxisTickLabelsFormatter(Charts::percentileLabel);
        int i = 0;
        for (Map.Entry<Integer, List<CellResult>> seq : bySeq(cells).entrySet()) {
            Color color = PALETTE[i++ % PALETTE.length];
            CellResult cell = seq.getValue().stream().filter(c -> c.batch() == largestBatch).findFirst().orElse(null);
            if (cell == null || cell.histogramNs() == null) {
                continue; // a trimmed run file (the committed examples) keeps only the histograms this chart draws
            }
            Histogram histogram = HistogramCodec.decode(cell.histogramNs());
            List<double[]> points = new ArrayList<>();
            for (HistogramIterationValue v : histogram.percentiles(5)) {
                double p = Math.min(v.getPercentileLevelIteratedTo(), MAX_PERCENTILE);
                points.add(new double[] {1 / (1 - p / 100), v.getValueIteratedTo() / 1e6});
                if (p >= MAX_PERCENTILE) {
                    break;
                }
            }
            style(chart.addSeries(Text.seq(seq.getKey()) + ", batch " + largestBatch + " (" + cell.measuredPasses() + " passes)",
                    points.stream().mapToDouble(pt -> pt[0]).toArray(), points.stream().mapToDouble(pt -> pt[1]).toArray()), color, false);
        }
        return chart;
    }

    static XYSeries style(XYSeries series, Color color, boolean markers) {
        series.setLineColor(color);
        series.setMarkerColor(color);
        series.setMarker(markers ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
        return series;
    }

    /** Tick at x = 1/(1-p) labelled as the percentile p: 1 -> 0%, 10 -> 90%, 100 -> 99%, 1000 -> 99.9%. */
    static String percentileLabel(double x) {
        double p = 100 * (1 - 1 / x);
        if (p < 0.5) {
            return "0%";
        }
        String text = Text.f("%.4f", p).replaceAll("0+$", "").replaceAll("\\.$", "");
        return text + "%";
    }

    private static double[] values(List<CellResult> cells, ToDoubleFunction<CellResult> f) {
        return cells.stream().mapToDouble(f).toArray();
    }

    static ChartFile save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path dir, String name) {
        Path png = dir.resolve(name + ".png");
        Path svg = dir.resolve(name + ".svg");
        RunStore.writeAtomically(png, out -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG));
        RunStore.writeAtomically(svg, out -> VectorGraphicsEncoder.saveVectorGraphic(chart, out,
                VectorGraphicsEncoder.VectorGraphicsFormat.SVG));
        return new ChartFile(chart.getTitle(), png, svg);
    }

    static String slug(String text) {
        return text.replaceAll("[^A-Za-z0-9._-]+", "_");
    }

    /**
     * A model's part of a plot's file name: its short name where that is the whole name and already safe ({@code tiny}),
     * else the safe short name and 8 hex digits of the full name's SHA-256, so that two models with one base name
     * ({@code a/model.onnx}, {@code b/model.onnx}) or names that differ only in characters a file name cannot keep
     * ({@code модель.onnx}) never write one file over the other.
     */
    static String modelSlug(String model) {
        String shortName = Text.shortModelName(model);
        String safe = slug(shortName);
        if (safe.equals(shortName) && shortName.equals(model)) {
            return safe;
        }
        try {
            byte[] sha = java.security.MessageDigest.getInstance("SHA-256").digest(model.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return safe + "-" + java.util.HexFormat.of().formatHex(sha, 0, 4);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
