package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.GenerationResult;
import io.inferbench.results.RunResult;
import org.knowm.xchart.XYChart;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Generation's plots: step latency and prefill against batch; step latency against position. */
public final class GenerationCharts {
    private GenerationCharts() {
    }

    public static List<Charts.ChartFile> write(RunResult run, Path dir) {
        GenerationResult g = run.generation();
        if (g == null || g.cells().isEmpty()) {
            return List.of();
        }
        Map<String, List<GenerationResult.Cell>> series = new LinkedHashMap<>();
        for (GenerationResult.Cell c : g.cells()) {
            series.computeIfAbsent(c.backend() + " " + c.device() + " " + Text.shortModelName(c.model()) + " prompt " + c.seqLen(),
                    k -> new ArrayList<>()).add(c);
        }
        series.values().forEach(cells -> cells.sort(java.util.Comparator.comparingInt(GenerationResult.Cell::batch)));
        List<Charts.ChartFile> files = new ArrayList<>();
        XYChart batch = Charts.newChart("Generation: decode step and prefill p50 vs batch", "batch size (sequences)", "latency (ms)");
        XYChart position = Charts.newChart("Generation: decode step p50 vs position", "position (tokens in the cache)", "step latency (ms)");
        int i = 0;
        for (Map.Entry<String, List<GenerationResult.Cell>> s : series.entrySet()) {
            java.awt.Color color = Charts.PALETTE[i++ % Charts.PALETTE.length];
            List<GenerationResult.Cell> cells = s.getValue();
            double[] batches = cells.stream().mapToDouble(GenerationResult.Cell::batch).toArray();
            if (cells.stream().allMatch(c -> c.stepMs() != null)) {
                Charts.style(batch.addSeries(s.getKey() + " step", batches, cells.stream().mapToDouble(c -> c.stepMs().p50Ms()).toArray()),
                        color, true);
            }
            Charts.style(batch.addSeries(s.getKey() + " prefill", batches, cells.stream().mapToDouble(c -> c.prefillMs().p50Ms()).toArray()),
                    color, true).setLineStyle(Charts.DASHED);
            for (GenerationResult.Cell c : cells) {
                if (c.stepP50MsByPosition().isEmpty()) {
                    continue;
                }
                double[] x = new double[c.stepP50MsByPosition().size()];
                for (int p = 0; p < x.length; p++) {
                    x[p] = c.seqLen() + p + 1;
                }
                Charts.style(position.addSeries(s.getKey() + " batch " + c.batch(), x,
                        c.stepP50MsByPosition().stream().mapToDouble(Double::doubleValue).toArray()), color, false);
            }
        }
        files.add(Charts.save(batch, dir, "generation-batch"));
        if (g.newTokens() > 1) {
            files.add(Charts.save(position, dir, "generation-position"));
        }
        return files;
    }
}
