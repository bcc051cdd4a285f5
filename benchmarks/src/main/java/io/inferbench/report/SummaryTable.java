package io.inferbench.report;

import java.io.PrintStream;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The console summary: one table per (backend, device, model, seq bucket), one row per batch, tails first.
 * Percentiles are HdrHistogram values over the measured passes of all forks; warm-up is not in them.
 */
public final class SummaryTable {
    private SummaryTable() {
    }

    /** The cells that share everything but the batch size. */
    record Series(String backend, String device, String model, int seqLen) {
        static Series of(CellResult c) {
            return new Series(c.backend(), c.device(), c.model(), c.seqLen());
        }
    }

    public static void print(RunResult run, PrintStream out) {
        Comparator<Series> order = Comparator.comparing(Series::backend).thenComparing(Series::device)
                .thenComparing(Series::model).thenComparingInt(Series::seqLen);
        Map<Series, List<CellResult>> groups = run.cells().stream()
                .collect(Collectors.groupingBy(Series::of, () -> new TreeMap<>(order), Collectors.toList()));
        out.println();
        out.println("Latency per forward pass, ms (HdrHistogram, measured passes only; warm-up excluded)");
        for (Map.Entry<Series, List<CellResult>> group : groups.entrySet()) {
            Series s = group.getKey();
            out.println();
            out.println("== " + s.backend() + " | " + s.device() + " | " + s.model() + " | seq " + s.seqLen());
            out.println(String.format(Locale.ROOT, "%6s %10s %10s %10s %10s %12s %8s",
                    "batch", "p50", "p90", "p99", "p99.9", "samples/s", "passes"));
            group.getValue().stream().sorted(Comparator.comparingInt(CellResult::batch)).forEach(cell -> {
                if (!cell.measured()) {
                    out.println(String.format(Locale.ROOT, "%6d   FAILED: %s", cell.batch(), cell.error()));
                    return;
                }
                var l = cell.latencyMs();
                out.println(String.format(Locale.ROOT, "%6d %10.3f %10.3f %10.3f %10.3f %12.1f %8d",
                        cell.batch(), l.p50Ms(), l.p90Ms(), l.p99Ms(), l.p999Ms(), cell.samplesPerSecond(), l.count()));
            });
        }
        long lowSample = run.cells().stream().filter(CellResult::measured).filter(c -> c.measuredPasses() < 1000).count();
        if (lowSample > 0) {
            out.println();
            out.println("Note: " + lowSample + " cell(s) have fewer than 1000 measured passes, so their p99.9 is the "
                    + "maximum; raise -Dbench.iterations for a resolved p99.9.");
        }
    }
}
