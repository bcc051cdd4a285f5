package io.inferbench.compare;

import io.inferbench.Text;
import io.inferbench.report.Charts;
import io.inferbench.report.Markdown;
import io.inferbench.results.AbSection;
import io.inferbench.results.Json;
import io.inferbench.results.RunStore;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.inferbench.report.Markdown.left;
import static io.inferbench.report.Markdown.right;

/**
 * What an A/B run says to people, all of it: {@code ab.json} and {@code ab.md}, the console's line after each pair and
 * its table at the end. The statistics are {@link PairedAnalysis}'s; a change and its interval read the same in every
 * one of these ({@link #change}). Subjects are named by their short model names or their code's SHA-256, never by a
 * record's {@code toString()}.
 */
public final class AbReport {
    public static final String JSON_FILE = "ab.json";
    public static final String MARKDOWN_FILE = "ab.md";

    private AbReport() {
    }

    /** A and B as the console and the charts name them: {@code A/A}, or each side's name. */
    public static String subjects(AbSection section) {
        return section.sameSubject() ? "A/A" : "A " + name(section.subjects().get(0)) + ", B " + name(section.subjects().get(1));
    }

    static String name(AbSection.Subject subject) {
        if (subject.targets() != null && !subject.targets().isEmpty()) {
            String sha = subject.targets().get(0).sha256();
            return "code " + (sha == null ? "?" : sha.substring(0, Math.min(8, sha.length())));
        }
        return String.join(",", subject.models().stream().map(m -> Text.shortModelName(m.name())).toList());
    }

    /**
     * ab.md's lines before its table: the subjects, what differs, how the pairs were measured.
     *
     * @param measuredHow how the pairs were measured, the opening of a sentence (the pair source's)
     */
    public static List<String> header(AbSection section, String measuredHow) {
        List<String> lines = new ArrayList<>();
        lines.add(section.sameSubject() ? "**A/A run**: A and B are the same subject (" + name(section.subjects().get(1))
                + "); any `slower` or `faster` here is a false alarm."
                : "**A** " + name(section.subjects().get(0)) + ", **B** " + name(section.subjects().get(1)) + ". What differs: "
                + Text.shorten(String.join("; ", section.differences()), 600) + ".");
        lines.add(measuredHow + ", on the same machine in the same run; run.json holds every pair, and A's own run is "
                + section.subjects().get(0).runFile() + ".");
        return lines;
    }

    /**
     * A change and its interval, as every A/B text says it: {@code +9.8% [+7.1, +12.4]}, or {@code +9.8% [too few pairs]}
     * before the pairs give an interval; {@code none} when there is no change yet.
     */
    public static String change(PairedChange c, String none) {
        if (c == null) {
            return none;
        }
        return c.ciLowPercent() == null ? Text.f("%+.1f%% [too few pairs]", c.changePercent())
                : Text.f("%+.1f%% [%+.1f, %+.1f]", c.changePercent(), c.ciLowPercent(), c.ciHighPercent());
    }

    /** The console's change with its verdict: {@code +9.8% [+7.1, +12.4] REGRESSION}, {@code FAILED}. */
    static String changeAndVerdict(PairedChange c, String failed) {
        if (failed != null) {
            return "FAILED";
        }
        if (c == null || c.ciLowPercent() == null) {
            return change(c, "no pair yet");
        }
        return change(c, null) + " " + (c.regression() ? "REGRESSION" : c.verdict().label());
    }

    /** The console's line after each pair: each cell's change so far (up to 4 cells), what is still open, the time. */
    public static String pairLine(int pair, String how, long pairNs, long elapsedNs, PairedAnalysis.AbResult r, int open) {
        StringBuilder line = new StringBuilder(Text.f("[inferbench] A/B pair %d (%s, %.0f s): ", pair, how, pairNs / 1e9));
        if (r.cells().size() <= 4) {
            List<String> cells = new ArrayList<>();
            for (PairedAnalysis.Cell c : r.cells()) {
                Integer more = c.gate() == null || c.stop() != null ? null : c.gate().moreToDecide();
                cells.add(Text.seq(c.seqLen()) + " batch " + c.batch() + " p50 " + changeAndVerdict(c.p50(), c.failed())
                        + (more == null || more <= 0 || r.secondsPerPair() == null ? ""
                        : Text.f(", needs about %d more pair(s), %.1f min", more, more * r.secondsPerPair() / 60)));
            }
            line.append(String.join("; ", cells)).append(" | ");
        }
        long seconds = Math.round(elapsedNs / 1e9);
        line.append(Text.f("%d of %d cells still open | %d min %02d s elapsed", open, r.cells().size(), seconds / 60,
                seconds % 60));
        return line.toString();
    }

    /** The console's table at the end of the run, and what decides each cell left undecided. */
    public static void printTable(PairedAnalysis.AbResult r, String overall, PrintStream console) {
        console.println();
        console.println(Text.f("A/B: B against A, %d cells, intervals simultaneous at %s%% (each %.2f%%), threshold %s%%; "
                        + "pairs stopped: %s", r.cells().size(), Text.plain(100 * r.confidenceLevel()),
                100 * r.intervalConfidenceLevel(), Text.plain(r.thresholdPercent()), overall));
        console.println(Text.f("  %-10s %5s %5s %6s  %-38s %-11s  %-38s  %s", "backend", "seq", "batch", "pairs", "p50 change [CI] verdict",
                "detectable", "p99 change [CI] verdict", "gate"));
        for (PairedAnalysis.Cell c : r.cells()) {
            console.println(Text.f("  %-10s %5s %5d %6d  %-38s %-11s  %-38s  %s", Text.shorten(c.backend(), 10),
                    Text.seqValue(c.seqLen()), c.batch(), c.pairs(), changeAndVerdict(c.p50(), c.failed()),
                    c.p50() == null || c.p50().detectablePercent() == null ? "-" : Text.f("%.1f%%", c.p50().detectablePercent()),
                    changeAndVerdict(c.p99(), c.failed()), c.gate().decision().label()));
        }
        r.cells().stream().filter(c -> c.failed() != null || c.note() != null).forEach(c -> console.println("  "
                + c.shape() + ": " + (c.failed() != null ? Text.shorten(c.failed(), 300) : c.note())));
        r.undecided().forEach(c -> console.println("  " + c.shape() + " undecided: " + c.gate().reason() + "; "
                + toDecide(c, r.secondsPerPair())));
        String order = orderLine(r.cells());
        if (order != null) {
            console.println("  " + order);
        }
    }

    /**
     * The order of the calls over every cell that has one ({@code passes}), in one line: B's share of the first places
     * and what running second did to each side's p50; null where no cell has an order.
     */
    static String orderLine(List<PairedAnalysis.Cell> cells) {
        List<AbSection.CallOrder> orders = cells.stream().map(PairedAnalysis.Cell::order).filter(java.util.Objects::nonNull)
                .toList();
        if (orders.isEmpty()) {
            return null;
        }
        AbSection.CallOrder all = AbSection.CallOrder.together(orders);
        return Text.f("order drawn per call: B first in %.1f%% of %d units; run second against first, p50: A %s, B %s",
                all.bFirstPercent() == null ? 0.0 : all.bFirstPercent(), all.calls(),
                range(orders.stream().map(AbSection.CallOrder::aSecondPercent).toList()),
                range(orders.stream().map(AbSection.CallOrder::bSecondPercent).toList()));
    }

    /** {@code +0.3%}, or {@code -0.2% to +0.4%} over several cells; {@code -} for none. */
    private static String range(List<Double> percents) {
        double[] v = percents.stream().filter(java.util.Objects::nonNull).mapToDouble(Double::doubleValue).sorted().toArray();
        if (v.length == 0) {
            return "-";
        }
        String low = Text.f("%+.1f%%", v[0]);
        String high = Text.f("%+.1f%%", v[v.length - 1]);
        return low.equals(high) ? low : low + " to " + high;
    }

    /**
     * What would decide {@code cell}, for ab.md and the console: {@code about 9 more pairs, 2.0 more minutes}, or why no
     * number of pairs is in sight.
     */
    public static String toDecide(PairedAnalysis.Cell cell, Double secondsPerPair) {
        Integer more = cell.gate().moreToDecide();
        if (more == null) {
            return "more pairs are not likely to decide it (its change is close to the threshold: a larger -Dbench.ab.threshold "
                    + "if that change is acceptable, or a quieter machine for a narrower interval)";
        }
        return "about " + more + " more pair(s)" + (secondsPerPair == null ? ""
                : Text.f(", %.1f more minute(s) (-Dbench.ab.maxMinutes, -Dbench.ab.maxPairs)", more * secondsPerPair / 60));
    }

    /**
     * ab.json and ab.md into {@code dir}, each replaced whole.
     *
     * @param header what ab.md says before its table: the subjects, what differs, how the pairs were measured (a few
     *               lines, paths shortened)
     * @param charts the plots ab.md shows after its table; empty while the pairs go on
     */
    public static void write(PairedAnalysis.AbResult result, List<String> header, List<Charts.ChartFile> charts, Path dir) {
        RunStore.writeAtomically(dir.resolve(JSON_FILE), out -> Json.mapper().writeValue(out, result));
        RunStore.writeAtomically(dir.resolve(MARKDOWN_FILE),
                out -> out.write(render(result, header, charts, dir).getBytes(StandardCharsets.UTF_8)));
    }

    /** ab.md: the answer first, then one row per cell, then what the run doubts and the plots; a screenful before the table. */
    static String render(PairedAnalysis.AbResult r, List<String> header, List<Charts.ChartFile> charts, Path dir) {
        Markdown md = new Markdown();
        long slower = r.cells().stream().filter(c -> c.p50() != null && (c.p50().verdict() == PairedVerdict.SLOWER
                || c.p99().verdict() == PairedVerdict.SLOWER)).count();
        long unresolved = r.cells().stream().filter(c -> c.p50() == null || c.p50().verdict() == PairedVerdict.UNRESOLVED).count();
        long failed = r.cells().stream().filter(c -> c.failed() != null).count();
        md.line("# inferbench A/B: " + r.headline()).blank();
        md.line(Text.f("**%s**%s: %d of %d cells a regression (threshold %s%%), %d slower, %d with the p50 unresolved%s; "
                        + "a cell passes only when its %s interval lies wholly below the threshold; intervals simultaneous "
                        + "at %s%% over %d, each at %.2f%%.",
                r.decision() == GateDecision.NO_REGRESSION ? "No regression shown" : r.decision().label().toUpperCase(java.util.Locale.ROOT),
                r.runStopped() != null ? " (" + r.runStopped() + "; " + r.undecided().size() + " cell(s) left undecided)"
                        : r.pairsStopped() == null ? " (the pairs had not ended when this was written: if the run is not "
                        + "running, it was stopped, and what is open stays undecided)" : "",
                r.cells().stream().filter(PairedAnalysis.Cell::regression).count(), r.cells().size(), Text.plain(r.thresholdPercent()), slower,
                unresolved, failed == 0 ? "" : ", " + failed + " FAILED", r.gatePercentiles().replace(",", " and "),
                Text.plain(100 * r.confidenceLevel()), r.intervals(), 100 * r.intervalConfidenceLevel())).blank();
        List<PairedAnalysis.Cell> undecided = r.undecided();
        if (!undecided.isEmpty()) {
            md.line("**Undecided** (a pass needs a regression ruled out):").blank();
            undecided.forEach(c -> md.line("- " + subjectOf(c) + " " + c.shape() + ": " + c.gate().reason()
                    + "; " + toDecide(c, r.secondsPerPair())));
            md.blank();
        }
        header.forEach(line -> md.line(line).blank());
        md.line("Change = B / A - 1 per pair (positive: B is slower), the Hodges-Lehmann estimate over the pairs with its "
                + "signed-rank interval; *detectable* is the smallest change these pairs could tell from none. A cell is "
                + "`slower` or `faster` only when its interval lies wholly beyond the floor, ±" + Text.plain(r.floorPercent())
                + "% (`-Dbench.ab.floor`): an interval above 0 that reaches below the floor, inside the threshold, is `within`.")
                .blank();
        md.header(left("backend"), left("device"), left("model"), right("seq"), right("batch"), right("pairs"),
                right("p50 change [CI]"), left("p50"), right("detectable"), right("p99 change [CI]"), left("p99"), left("gate"),
                left("stopped"));
        for (PairedAnalysis.Cell c : r.cells()) {
            md.row(Text.shortModelName(c.backend()), c.device(), Text.shortModelName(c.model()), Text.seqValue(c.seqLen()),
                    Integer.toString(c.batch()), Integer.toString(c.pairs()), change(c.p50(), "-"), verdict(c.p50(), c.failed()),
                    c.p50() == null || c.p50().detectablePercent() == null ? "-" : Text.f("%.1f%%", c.p50().detectablePercent()),
                    change(c.p99(), "-"), verdict(c.p99(), c.failed()), c.gate().decision() == GateDecision.NO_REGRESSION
                            ? c.gate().decision().label() : "**" + c.gate().decision().label() + "**",
                    c.stop() == null ? "" : c.stop());
        }
        md.blank();
        List<PairedAnalysis.Cell> ordered = r.cells().stream().filter(c -> c.order() != null).toList();
        if (!ordered.isEmpty()) {
            md.line("## The order of the calls").blank();
            md.line("Each unit of a fork ran A's call and B's, each order once in every block of two units (which "
                    + "first drawn), so that what running second costs (caches the other call evicted, threads still "
                    + "waking) falls on each side half the time and cancels in B / A. *Second vs first*: a side's p50 "
                    + "over its calls run second against its p50 over those run first, the median over the pairs.").blank();
            md.header(left("backend"), right("seq"), right("batch"), right("units"), right("B first"),
                    right("A: second vs first"), right("B: second vs first"));
            for (PairedAnalysis.Cell c : ordered) {
                AbSection.CallOrder o = c.order();
                md.row(Text.shortModelName(c.backend()), Text.seqValue(c.seqLen()), Integer.toString(c.batch()),
                        Long.toString(o.calls()), o.bFirstPercent() == null ? "-" : Text.f("%.1f%%", o.bFirstPercent()),
                        range(java.util.Collections.singletonList(o.aSecondPercent())),
                        range(java.util.Collections.singletonList(o.bSecondPercent())));
            }
            md.blank();
        }
        List<PairedAnalysis.Cell> doubted = r.cells().stream().filter(c -> c.note() != null || c.failed() != null).toList();
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

    /** What a cell measures, for people: its model, or a target's class when it has none. */
    private static String subjectOf(PairedAnalysis.Cell c) {
        return "none".equals(c.model()) ? Text.shortModelName(c.backend()) : Text.shortModelName(c.model());
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
