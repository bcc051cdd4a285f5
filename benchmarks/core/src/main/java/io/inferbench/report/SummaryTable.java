package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunResult;

import java.io.PrintStream;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The console summary: one table per (device, model, seq bucket), one row per batch, and the backends side by
 * side (p50, p90, p99, p99.9, samples/s each), with each other backend's p50 as a ratio to the first one's.
 * Percentiles are HdrHistogram values over the measured passes of all forks; warm-up is not in them.
 */
public final class SummaryTable {
    private SummaryTable() {
    }

    /** The cells that share everything but the backend and the batch size: one table. */
    record Bucket(String device, String model, int seqLen) {
        static Bucket of(CellResult c) {
            return new Bucket(c.device(), c.model(), c.seqLen());
        }
    }

    public static void print(RunResult run, PrintStream out) {
        Comparator<Bucket> order = Comparator.comparing(Bucket::device).thenComparing(Bucket::model).thenComparingInt(Bucket::seqLen);
        Map<Bucket, List<CellResult>> buckets = run.cells().stream()
                .collect(Collectors.groupingBy(Bucket::of, () -> new TreeMap<>(order), Collectors.toList()));
        List<String> backends = run.cells().stream().map(CellResult::backend).distinct().toList();
        out.println();
        out.println("Latency per forward pass, ms (HdrHistogram, measured passes only; warm-up excluded)");
        for (Map.Entry<Bucket, List<CellResult>> bucket : buckets.entrySet()) {
            Bucket b = bucket.getKey();
            out.println();
            out.println("== " + b.device() + " | " + Text.shortModelName(b.model()) + " | " + Text.seq(b.seqLen()));
            StringBuilder header = new StringBuilder(Text.f("%6s", "batch"));
            for (String backend : backends) {
                header.append(Text.f(" | %-12s %9s %9s %9s %10s", backend, "p50", "p99", "p99.9", "samples/s"));
            }
            for (String other : backends.subList(1, backends.size())) {
                header.append(Text.f(" | %s", other + "/" + backends.get(0) + " p50"));
            }
            out.println(header);
            TreeSet<Integer> batches = bucket.getValue().stream().map(CellResult::batch).collect(Collectors.toCollection(TreeSet::new));
            for (int batch : batches) {
                StringBuilder row = new StringBuilder(Text.f("%6d", batch));
                for (String backend : backends) {
                    CellResult cell = find(bucket.getValue(), backend, batch);
                    if (cell == null) {
                        row.append(Text.f(" | %-12s %9s %9s %9s %10s", "", "-", "-", "-", "-"));
                    } else if (!cell.measured()) {
                        row.append(Text.f(" | %-12s %40s", "", "FAILED (see run.json)"));
                    } else {
                        var l = cell.latencyMs();
                        row.append(Text.f(" | %-12s %9.3f %9.3f %9.3f %10.1f", "", l.p50Ms(), l.p99Ms(),
                                l.p999Ms(), cell.samplesPerSecond()));
                    }
                }
                CellResult first = find(bucket.getValue(), backends.get(0), batch);
                for (String other : backends.subList(1, backends.size())) {
                    CellResult cell = find(bucket.getValue(), other, batch);
                    boolean both = first != null && first.measured() && cell != null && cell.measured();
                    row.append(both ? Text.f(" | %.2fx", cell.latencyMs().p50Ms() / first.latencyMs().p50Ms()) : " | -");
                }
                out.println(row);
            }
        }
        long noP999 = run.cells().stream().filter(CellResult::measured).filter(c -> c.measuredPasses() < 1000).count();
        long noP99 = run.cells().stream().filter(CellResult::measured).filter(c -> c.measuredPasses() < 100).count();
        if (noP999 > 0) {
            out.println("Note: " + noP999 + " cell(s) have fewer than 1000 measured passes over all forks, so their p99.9 is "
                    + "the maximum" + (noP99 > 0 ? ", and " + noP99 + " fewer than 100, so their p99 is" : "")
                    + "; -Dbench.resolve=p99 (or p99.9) makes every fork measure enough for it.");
        }
    }

    private static CellResult find(List<CellResult> cells, String backend, int batch) {
        return cells.stream().filter(c -> Objects.equals(c.backend(), backend) && c.batch() == batch).findFirst().orElse(null);
    }
}
