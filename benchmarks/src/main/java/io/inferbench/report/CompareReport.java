package io.inferbench.report;

import io.inferbench.analysis.ChangeEstimate;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** {@code compare.md}, ready to post on a pull request, and the console's summary of a comparison. */
public final class CompareReport {
    private CompareReport() {
    }

    public static String render(CompareResult r, List<Charts.ChartFile> charts, Path dir) {
        StringBuilder md = new StringBuilder();
        line(md, "# inferbench compare: " + r.baseline().runId() + " -> " + r.candidate().runId());
        line(md, "");
        if (r.overridden()) {
            line(md, "> **WARNING: these runs are not comparable** (" + String.join("; ", r.ruler().incomparable())
                    + "). They were compared anyway because it was forced; do not read the changes below as the effect of a code change.");
            line(md, "");
        }
        boolean sampled = r.rows().stream().allMatch(row -> row.p50().betweenRunNoiseSampled());
        if (!sampled) {
            line(md, "> **Note:** at least one run has a single fork per cell, so the intervals below cover only the noise "
                    + "inside one JVM, not the run-to-run noise. Run both sides with `-Dbench.forks=3` or more before gating on them.");
            line(md, "");
        }
        line(md, fmt("**%s**: %d regressed, %d improved, %d no change, of %d shared cells (threshold %s%%, simultaneous %s%% "
                        + "confidence over %d intervals, each at %.3f%%).",
                r.regressed() ? "REGRESSED" : "No regression", r.regressedCells(), r.improved(), r.unchanged(), r.rows().size(),
                trim(r.thresholdPercent()), trim(100 * r.confidenceLevel()), r.intervals(), 100 * r.intervalConfidenceLevel()));
        line(md, "");
        line(md, "| | baseline | candidate |");
        line(md, "|---|---|---|");
        line(md, "| run | " + r.baseline().runId() + " | " + r.candidate().runId() + " |");
        line(md, "| started | " + r.baseline().startedAt() + " | " + r.candidate().startedAt() + " |");
        line(md, "");
        line(md, "## Conditions that differ");
        line(md, "");
        if (r.ruler().incomparable().isEmpty() && r.ruler().differences().isEmpty()) {
            line(md, "None: same hardware, software, model and counts.");
        }
        r.ruler().incomparable().forEach(d -> line(md, "- **incomparable:** " + d));
        r.ruler().differences().forEach(d -> line(md, "- " + d));
        line(md, "");
        line(md, "## Cells");
        line(md, "");
        line(md, "Change = candidate / baseline - 1 (positive is slower), with its confidence interval.");
        line(md, "");
        line(md, "| backend | device | model | seq | batch | p50 base (ms) | p50 cand (ms) | p50 change [CI] | p99 base (ms) | p99 cand (ms) | p99 change [CI] | verdict |");
        line(md, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
        for (CompareResult.Row row : r.rows()) {
            line(md, "| " + row.backend() + " | " + row.device() + " | " + VerdictTable.shortName(row.model()) + " | " + row.seqLen()
                    + " | " + row.batch() + " | " + fmt("%.3f", row.p50().baselineMs()) + " | " + fmt("%.3f", row.p50().candidateMs())
                    + " | " + change(row.p50()) + " | " + fmt("%.3f", row.p99().baselineMs()) + " | " + fmt("%.3f", row.p99().candidateMs())
                    + " | " + change(row.p99()) + " | " + (row.verdict() == io.inferbench.analysis.ChangeVerdict.NO_CHANGE
                    ? row.verdict().label() : "**" + row.verdict().label() + "**") + " |");
        }
        line(md, "");
        if (!r.onlyInBaseline().isEmpty() || !r.onlyInCandidate().isEmpty()) {
            line(md, "## Cells not compared");
            line(md, "");
            r.onlyInBaseline().forEach(id -> line(md, "- only in the baseline: `" + id + "`"));
            r.onlyInCandidate().forEach(id -> line(md, "- only in the candidate: `" + id + "`"));
            line(md, "");
        }
        line(md, "## Regime changes");
        line(md, "");
        if (r.regimeChanges().isEmpty()) {
            line(md, "None.");
        }
        r.regimeChanges().forEach(c -> line(md, "- **" + c + "**"));
        line(md, "");
        if (!charts.isEmpty()) {
            line(md, "## Batch scaling, baseline vs candidate");
            line(md, "");
            for (Charts.ChartFile chart : charts) {
                line(md, "![" + chart.title() + "](" + dir.relativize(chart.png()).toString().replace('\\', '/') + ")");
                line(md, "");
            }
        }
        line(md, "## Method");
        line(md, "");
        line(md, "- Interval: " + r.method() + " (" + r.resamples() + " bootstrap replicates where it applies.)");
        line(md, fmt("- Multiple comparisons: one regressed cell fails the gate, so the %d intervals are simultaneous at %s%% "
                + "(Bonferroni: each at %.3f%%).", r.intervals(), trim(100 * r.confidenceLevel()), 100 * r.intervalConfidenceLevel()));
        line(md, "- Verdict: **regressed** when the whole interval of the p50 or p99 change is above 0 and the change exceeds "
                + trim(r.thresholdPercent()) + "%; **improved** is the mirror; otherwise **no change**.");
        return md.toString();
    }

    public static void printSummary(CompareResult r, PrintStream out) {
        out.println();
        if (r.overridden()) {
            out.println("[inferbench] WARNING: not comparable, compared because forced: " + String.join("; ", r.ruler().incomparable()));
        }
        r.ruler().differences().forEach(d -> out.println("[inferbench] differs: " + d));
        out.println(String.format(Locale.ROOT, "%-40s %10s %10s %24s %24s  %s", "cell", "p50 base", "p50 cand", "p50 change [CI]",
                "p99 change [CI]", "verdict"));
        for (CompareResult.Row row : r.rows()) {
            out.println(String.format(Locale.ROOT, "%-40s %10.3f %10.3f %24s %24s  %s",
                    row.backend() + "/" + row.device() + "/" + VerdictTable.shortName(row.model()) + "/seq" + row.seqLen() + "/b" + row.batch(),
                    row.p50().baselineMs(), row.p50().candidateMs(), change(row.p50()), change(row.p99()), row.verdict().label()));
        }
        r.onlyInBaseline().forEach(id -> out.println("[inferbench] only in the baseline: " + id));
        r.onlyInCandidate().forEach(id -> out.println("[inferbench] only in the candidate: " + id));
        r.regimeChanges().forEach(c -> out.println("[inferbench] regime changed: " + c));
        out.println(String.format(Locale.ROOT, "[inferbench] %s: %d regressed, %d improved, %d no change (threshold %s%%)",
                r.regressed() ? "REGRESSED" : "no regression", r.regressedCells(), r.improved(), r.unchanged(), trim(r.thresholdPercent())));
    }

    static String change(ChangeEstimate e) {
        return fmt("%+.1f%% [%+.1f, %+.1f]", e.changePercent(), e.ciLowPercent(), e.ciHighPercent());
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : fmt("%s", value);
    }

    private static void line(StringBuilder md, String text) {
        md.append(text).append('\n');
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
