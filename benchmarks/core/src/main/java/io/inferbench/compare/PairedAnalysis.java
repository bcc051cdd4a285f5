package io.inferbench.compare;

import io.inferbench.Text;
import io.inferbench.report.Charts;
import io.inferbench.report.Markdown;
import io.inferbench.results.AbSection;
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
     * @param p50    the p50's change; null before the first pair
     * @param failed why a subject's cell failed, naming the subject; null when neither did
     * @param note   why the verdicts are {@code unresolved} though the intervals would say more; null otherwise
     */
    public record Cell(String backend, String device, String model, int seqLen, int batch, int pairs, PairedChange p50,
                       PairedChange p99, String stop, String disturbed, String failed, String note) {
        boolean regression() {
            return p50 != null && (p50.regression() || p99.regression());
        }

    }

    /**
     * @param cells            each cell's pairs so far, in plan order
     * @param familyLevel      the confidence of every interval together
     * @param thresholdPercent the change that is a regression
     */
    public static AbResult analyse(List<AbSection.CellPairs> cells, double familyLevel, double thresholdPercent) {
        int intervals = 2 * cells.size();
        double level = Comparison.perIntervalLevel(familyLevel, intervals);
        List<Cell> out = new ArrayList<>();
        for (AbSection.CellPairs cell : cells) {
            int n = cell.pairs().size();
            if (n == 0) {
                out.add(new Cell(cell.backend(), cell.device(), cell.model(), cell.seqLen(), cell.batch(), 0, null, null,
                        cell.stop(), cell.disturbed(), cell.failed(), null));
                continue;
            }
            double[] a50 = new double[n];
            double[] b50 = new double[n];
            double[] a99 = new double[n];
            double[] b99 = new double[n];
            for (int i = 0; i < n; i++) {
                AbSection.Pair pair = cell.pairs().get(i);
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
                    cell.disturbed(), cell.failed(), note));
        }
        return new AbResult(SCHEMA_VERSION, out.stream().anyMatch(Cell::regression), thresholdPercent, familyLevel, intervals,
                level, List.copyOf(out));
    }

    private static boolean proves(PairedChange change) {
        return change.verdict() == PairedVerdict.SLOWER || change.verdict() == PairedVerdict.FASTER;
    }

    /**
     * ab.json and ab.md into {@code dir}, each replaced whole.
     *
     * @param header what ab.md says before its table: the subjects, what differs, how the pairs were measured (a few
     *               lines, paths shortened)
     * @param charts the plots ab.md shows after its table; empty while the pairs go on
     */
    public static void write(AbResult result, List<String> header, List<Charts.ChartFile> charts, Path dir) {
        RunStore.writeAtomically(dir.resolve(JSON_FILE), out -> Json.mapper().writeValue(out, result));
        RunStore.writeAtomically(dir.resolve(MARKDOWN_FILE),
                out -> out.write(render(result, header, charts, dir).getBytes(StandardCharsets.UTF_8)));
    }

    /** ab.md: the answer first, then one row per cell, then what the run doubts and the plots; a screenful before the table. */
    static String render(AbResult r, List<String> header, List<Charts.ChartFile> charts, Path dir) {
        Markdown md = new Markdown();
        long slower = r.cells().stream().filter(c -> c.p50() != null && (c.p50().verdict() == PairedVerdict.SLOWER
                || c.p99().verdict() == PairedVerdict.SLOWER)).count();
        long unresolved = r.cells().stream().filter(c -> c.p50() == null || c.p50().verdict() == PairedVerdict.UNRESOLVED).count();
        long failed = r.cells().stream().filter(c -> c.failed() != null).count();
        md.line("# inferbench A/B").blank();
        md.line(Text.f("**%s**: %d of %d cells a regression (threshold %s%%), %d slower, %d with the p50 unresolved%s; "
                        + "intervals simultaneous at %s%% over %d, each at %.2f%%.",
                r.regressed() ? "REGRESSED" : "No regression", r.cells().stream().filter(Cell::regression).count(),
                r.cells().size(), Text.plain(r.thresholdPercent()), slower, unresolved,
                failed == 0 ? "" : ", " + failed + " FAILED", Text.plain(100 * r.confidenceLevel()),
                r.intervals(), 100 * r.intervalConfidenceLevel())).blank();
        header.forEach(line -> md.line(line).blank());
        md.line("Change = B / A - 1 per pair (positive: B is slower), the Hodges-Lehmann estimate over the pairs with its "
                + "signed-rank interval; *detectable* is the smallest change these pairs could tell from none.").blank();
        md.header(new String[] {"backend", "device", "model", "seq", "batch", "pairs", "p50 change [CI]", "p50", "detectable",
            "p99 change [CI]", "p99", "stopped"}, false, false, false, true, true, true, true, false, true, true, false, false);
        for (Cell c : r.cells()) {
            md.row(Text.shortModelName(c.backend()), c.device(), Text.shortModelName(c.model()), Text.seqValue(c.seqLen()),
                    Integer.toString(c.batch()), Integer.toString(c.pairs()), change(c.p50()), verdict(c.p50(), c.failed()),
                    c.p50() == null || c.p50().detectablePercent() == null ? "-" : Text.f("%.1f%%", c.p50().detectablePercent()),
                    change(c.p99()), verdict(c.p99(), c.failed()), c.stop() == null ? "" : c.stop());
        }
        md.blank();
        List<Cell> doubted = r.cells().stream().filter(c -> c.note() != null || c.failed() != null).toList();
        if (!doubted.isEmpty()) {
            md.line("## Cells that failed, and cells whose data the run doubts").blank();
            doubted.forEach(c -> md.line("- " + Text.shortModelName(c.backend()) + " " + Text.shortModelName(c.model()) + " seq "
                    + Text.seqValue(c.seqLen()) + " batch " + c.batch() + ": "
                    + (c.failed() != null ? "FAILED: " + Text.shorten(c.failed(), 300) : c.note())));
            md.blank();
        }
        if (!charts.isEmpty()) {
            md.line("## Plots").blank();
            for (Charts.ChartFile chart : charts) {
                md.line("![" + chart.title() + "](" + dir.relativize(chart.png()).toString().replace('\\', '/') + ")").blank();
            }
        }
        return md.toString();
    }

    private static String change(PairedChange c) {
        if (c == null) {
            return "-";
        }
        return c.ciLowPercent() == null ? Text.f("%+.1f%% [too few pairs]", c.changePercent())
                : Text.f("%+.1f%% [%+.1f, %+.1f]", c.changePercent(), c.ciLowPercent(), c.ciHighPercent());
    }

    private static String verdict(PairedChange c, String failed) {
        if (failed != null) {
            return "**failed**";
        }
        if (c == null) {
            return "-";
        }
        String label = c.verdict().label();
        return c.regression() ? "**regression**" : c.verdict() == PairedVerdict.SLOWER || c.verdict() == PairedVerdict.FASTER
                ? "**" + label + "**" : label;
    }
}
