package io.inferbench.compare;

import io.inferbench.Text;
import io.inferbench.report.Markdown;
import io.inferbench.results.Json;
import io.inferbench.results.RunStore;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An A/B run's answer, cell by cell, from its pairs: {@link PairedChange} for the p50 and the p99, intervals
 * simultaneous over every cell and both percentiles (Bonferroni, as {@link Comparison} does), and the gate's
 * {@code regressed}. Written as {@code ab.json} and {@code ab.md} beside run.json, and cheap enough to write again after
 * every pair, so that a run stopped at any point keeps the answer of the pairs it finished.
 *
 * <p><b>Doubted data.</b> A cell whose measurements the run set aside or kept disturbed (other processes took the
 * machine meanwhile) is {@code unresolved}, saying why, unless its pairs still prove a change: an interval wholly on one
 * side of 0 survives a disturbance that both sides of each pair shared.
 */
public final class PairedAnalysis {
    public static final String JSON_FILE = "ab.json";
    public static final String MARKDOWN_FILE = "ab.md";
    public static final int SCHEMA_VERSION = 1;

    private PairedAnalysis() {
    }

    /**
     * One pair: A's and B's p50 and p99 over one fork each, run back to back.
     *
     * @param bFirst whether B's fork ran before A's in this pair (the order is drawn per pair)
     */
    public record Pair(boolean bFirst, double aP50Ms, double bP50Ms, double aP99Ms, double bP99Ms) {
    }

    /**
     * One cell's pairs.
     *
     * @param disturbed why the run doubts this cell's data (set aside, or kept disturbed); null when it does not
     * @param stop      why its pairs stopped: the answer known, the time cap, or the run stopped
     */
    public record CellPairs(String backend, String device, String model, int seqLen, int batch, List<Pair> pairs,
                            String disturbed, String stop) {
    }

    /**
     * ab.json.
     *
     * @param regressed               any cell's p50 or p99 a regression: the gate's exit code 1
     * @param thresholdPercent        the change that is a regression
     * @param confidenceLevel         the family's confidence, over every interval together
     * @param intervals               how many intervals the family holds (cells times two percentiles)
     * @param intervalConfidenceLevel each interval's own confidence
     */
    public record AbResult(int schemaVersion, boolean regressed, double thresholdPercent, double confidenceLevel,
                           int intervals, double intervalConfidenceLevel, List<Cell> cells) {
    }

    /**
     * One cell of ab.json.
     *
     * @param note why the verdicts are {@code unresolved} though the intervals would say more; null otherwise
     */
    public record Cell(String backend, String device, String model, int seqLen, int batch, int pairs, PairedChange p50,
                       PairedChange p99, String stop, String disturbed, String note) {
        boolean regression() {
            return p50.regression() || p99.regression();
        }
    }

    public static AbResult analyse(List<CellPairs> cells, double familyLevel, double thresholdPercent) {
        int intervals = 2 * cells.size();
        double level = Comparison.perIntervalLevel(familyLevel, intervals);
        List<Cell> out = new ArrayList<>();
        for (CellPairs cell : cells) {
            int n = cell.pairs().size();
            double[] a50 = new double[n];
            double[] b50 = new double[n];
            double[] a99 = new double[n];
            double[] b99 = new double[n];
            for (int i = 0; i < n; i++) {
                Pair pair = cell.pairs().get(i);
                a50[i] = pair.aP50Ms();
                b50[i] = pair.bP50Ms();
                a99[i] = pair.aP99Ms();
                b99[i] = pair.bP99Ms();
            }
            PairedChange p50 = PairedChange.of(a50, b50, level, thresholdPercent);
            PairedChange p99 = PairedChange.of(a99, b99, level, thresholdPercent);
            String note = null;
            if (cell.disturbed() != null) {
                List<String> kept = new ArrayList<>();
                if (!proves(p50)) {
                    p50 = p50.unresolved();
                    kept.add("p50");
                }
                if (!proves(p99)) {
                    p99 = p99.unresolved();
                    kept.add("p99");
                }
                if (!kept.isEmpty()) {
                    note = String.join(" and ", kept) + " unresolved: " + cell.disturbed() + ", and the pairs do not prove a change";
                }
            }
            out.add(new Cell(cell.backend(), cell.device(), cell.model(), cell.seqLen(), cell.batch(), n, p50, p99, cell.stop(),
                    cell.disturbed(), note));
        }
        return new AbResult(SCHEMA_VERSION, out.stream().anyMatch(Cell::regression), thresholdPercent, familyLevel, intervals,
                level, List.copyOf(out));
    }

    private static boolean proves(PairedChange change) {
        return change.verdict() == PairedVerdict.SLOWER || change.verdict() == PairedVerdict.FASTER;
    }

    /** ab.json and ab.md into {@code dir}, each replaced whole. */
    public static void write(AbResult result, String subjects, Path dir) {
        RunStore.writeAtomically(dir.resolve(JSON_FILE), out -> Json.mapper().writeValue(out, result));
        RunStore.writeAtomically(dir.resolve(MARKDOWN_FILE),
                out -> out.write(render(result, subjects).getBytes(StandardCharsets.UTF_8)));
    }

    /** ab.md: the answer first, then one row per cell; no more than a screenful before the table. */
    static String render(AbResult r, String subjects) {
        Markdown md = new Markdown();
        long slower = r.cells().stream().filter(c -> c.p50().verdict() == PairedVerdict.SLOWER
                || c.p99().verdict() == PairedVerdict.SLOWER).count();
        long unresolved = r.cells().stream().filter(c -> c.p50().verdict() == PairedVerdict.UNRESOLVED).count();
        md.line("# inferbench A/B").blank();
        md.line(Text.f("**%s**: %d of %d cells a regression (threshold %s%%), %d slower, %d with the p50 unresolved; "
                        + "intervals simultaneous at %s%% over %d, each at %.2f%%.",
                r.regressed() ? "REGRESSED" : "No regression", r.cells().stream().filter(Cell::regression).count(),
                r.cells().size(), Text.plain(r.thresholdPercent()), slower, unresolved, Text.plain(100 * r.confidenceLevel()),
                r.intervals(), 100 * r.intervalConfidenceLevel())).blank();
        md.line(subjects).blank();
        md.line("Change = B / A - 1 per pair (positive: B is slower), the Hodges-Lehmann estimate over the pairs with its "
                + "signed-rank interval; *detectable* is the smallest change these pairs could tell from none.").blank();
        md.header(new String[] {"backend", "device", "model", "seq", "batch", "pairs", "p50 change [CI]", "p50", "detectable",
            "p99 change [CI]", "p99", "stopped"}, false, false, false, true, true, true, true, false, true, true, false, false);
        for (Cell c : r.cells()) {
            md.row(c.backend(), c.device(), Text.shortModelName(c.model()), Text.seqValue(c.seqLen()), Integer.toString(c.batch()),
                    Integer.toString(c.pairs()), change(c.p50()), verdict(c.p50()),
                    c.p50().detectablePercent() == null ? "-" : Text.f("%.1f%%", c.p50().detectablePercent()), change(c.p99()),
                    verdict(c.p99()), c.stop() == null ? "" : c.stop());
        }
        md.blank();
        List<Cell> doubted = r.cells().stream().filter(c -> c.note() != null).toList();
        if (!doubted.isEmpty()) {
            md.line("## Cells whose data the run doubts").blank();
            doubted.forEach(c -> md.line("- " + c.backend() + " " + Text.shortModelName(c.model()) + " seq " + Text.seqValue(c.seqLen())
                    + " batch " + c.batch() + ": " + c.note()));
            md.blank();
        }
        return md.toString();
    }

    private static String change(PairedChange c) {
        return c.ciLowPercent() == null ? Text.f("%+.1f%% [too few pairs]", c.changePercent())
                : Text.f("%+.1f%% [%+.1f, %+.1f]", c.changePercent(), c.ciLowPercent(), c.ciHighPercent());
    }

    private static String verdict(PairedChange c) {
        String label = c.verdict().label();
        return c.regression() ? "**regression**" : c.verdict() == PairedVerdict.SLOWER || c.verdict() == PairedVerdict.FASTER
                ? "**" + label + "**" : label;
    }
}
