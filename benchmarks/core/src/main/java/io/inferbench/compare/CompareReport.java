package io.inferbench.compare;

import io.inferbench.Text;
import io.inferbench.report.Charts;
import io.inferbench.report.Markdown;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** {@code compare.md}, ready to post on a pull request, and the console's summary of a comparison. */
public final class CompareReport {
    private CompareReport() {
    }

    public static String render(CompareResult r, List<Charts.ChartFile> charts, Path dir) {
        Markdown md = new Markdown();
        md.line("# inferbench compare: " + r.gate().headline()).blank();
        if (r.overridden()) {
            md.line("> **WARNING: these runs are not comparable** (" + String.join("; ", r.ruler().incomparable())
                    + "). They were compared anyway because it was forced; do not read the changes below as the effect of a code change.")
                    .blank();
        }
        boolean sampled = r.rows().stream().allMatch(row -> row.p50().betweenRunNoiseSampled());
        if (!sampled) {
            md.line("> **Note:** at least one run has a single fork per cell, so the intervals below cover only the noise "
                    + "inside one JVM, not the run-to-run noise. Run both sides with `-Dbench.forks=3` or more before gating on them.")
                    .blank();
        }
        md.line("Baseline " + r.baseline().runId() + " -> candidate " + r.candidate().runId() + ". A cell passes only when its "
                + r.gate().percentiles().replace(",", " and ") + " interval lies wholly below the threshold ("
                + Text.plain(r.thresholdPercent()) + "%): a regression of that size is ruled out.").blank();
        md.line(Text.f("**%s**: %d regressed, %d improved, %d no change, %d not resolved, of %d shared cells (threshold %s%%, "
                        + "simultaneous %s%% confidence over %d intervals, each at %.3f%%).",
                r.gate().decision() == GateDecision.NO_REGRESSION ? "No regression shown"
                        : r.gate().decision().label().toUpperCase(java.util.Locale.ROOT), r.regressedCells(), r.improved(),
                r.unchanged(), r.notResolved(),
                r.rows().size(), Text.plain(r.thresholdPercent()), Text.plain(100 * r.confidenceLevel()), r.intervals(),
                100 * r.intervalConfidenceLevel())).blank();
        List<CompareResult.Row> undecided = r.rows().stream().filter(row -> row.gate().decision() == GateDecision.UNDECIDED)
                .toList();
        if (!undecided.isEmpty()) {
            md.line("**Undecided** (a pass needs a regression ruled out):").blank();
            undecided.forEach(row -> md.line("- " + Text.shortModelName(row.model()) + " " + Text.seq(row.seqLen()) + " batch "
                    + row.batch() + ": " + row.gate().reason()));
            md.blank();
        }
        md.header(new String[] {"", "baseline", "candidate"});
        md.row("run", r.baseline().runId(), r.candidate().runId());
        md.row("started", r.baseline().startedAt(), r.candidate().startedAt());
        md.blank().line("## Conditions that differ").blank();
        if (r.ruler().incomparable().isEmpty() && r.ruler().differences().isEmpty()) {
            md.line("None: same hardware, software, model and counts.");
        }
        r.ruler().incomparable().forEach(d -> md.line("- **incomparable:** " + Text.shorten(d, 400)));
        r.ruler().differences().forEach(d -> md.line("- " + Text.shorten(d, 400)));
        md.blank().line("## Cells").blank();
        md.line("Change = candidate / baseline - 1 (positive is slower), with its confidence interval, or why the data "
                + "cannot give one.").blank();
        md.header(new String[] {"backend", "device", "model", "seq", "batch", "p50 base (ms)", "p50 cand (ms)", "p50 change [CI]",
            "p99 base (ms)", "p99 cand (ms)", "p99 change [CI]", "verdict", "gate"},
                false, false, false, true, true, true, true, true, true, true, true, false, false);
        for (CompareResult.Row row : r.rows()) {
            md.row(row.backend(), row.device(), Text.shortModelName(row.model()), Text.seqValue(row.seqLen()),
                    Integer.toString(row.batch()), Text.f("%.3f", row.p50().baselineMs()), Text.f("%.3f", row.p50().candidateMs()),
                    change(row.p50()), Text.f("%.3f", row.p99().baselineMs()), Text.f("%.3f", row.p99().candidateMs()),
                    change(row.p99()), row.verdict() == ChangeVerdict.REGRESSED || row.verdict() == ChangeVerdict.IMPROVED
                            ? "**" + row.verdict().label() + "**" : row.verdict().label(),
                    row.gate().decision() == GateDecision.NO_REGRESSION ? row.gate().decision().label()
                            : "**" + row.gate().decision().label() + "**");
        }
        md.blank();
        List<CompareResult.Row> doubted = r.rows().stream().filter(row -> row.doubted() != null).toList();
        if (!doubted.isEmpty()) {
            md.line("## Cells whose data the runs doubt").blank();
            md.line("Other processes took the machine while these were measured, or a fork departed from its siblings: a "
                    + "*no change* here is *not resolved*; a change their intervals prove stands.").blank();
            doubted.forEach(row -> md.line("- " + Text.shortModelName(row.model()) + " " + Text.seq(row.seqLen()) + " batch "
                    + row.batch() + ": " + row.doubted()));
            md.blank();
        }
        if (!r.onlyInBaseline().isEmpty() || !r.onlyInCandidate().isEmpty()) {
            md.line("## Cells not compared").blank();
            r.onlyInBaseline().forEach(id -> md.line("- only in the baseline: `" + id + "`"));
            r.onlyInCandidate().forEach(id -> md.line("- only in the candidate: `" + id + "`"));
            md.blank();
        }
        if (!r.serving().isEmpty() || !r.slaBoundaries().isEmpty()) {
            md.line("## Serving points both runs measured").blank();
            md.line("No interval and no verdict: each load point is one run of a queue, not repeated across forks, so nothing "
                    + "measures its run-to-run spread. Latency from intended start.").blank();
            if (!r.serving().isEmpty()) {
                md.header(new String[] {"point", "p50 base (ms)", "p50 cand (ms)", "p50 change", "p99 base (ms)", "p99 cand (ms)",
                    "p99 change", "achieved base (req/s)", "achieved cand (req/s)"}, false, true, true, true, true, true, true, true, true);
                for (ServingChange c : r.serving()) {
                    md.row(c.key(), Text.f("%.3f", c.baselineP50Ms()), Text.f("%.3f", c.candidateP50Ms()),
                            Text.f("%+.1f%%", c.p50ChangePercent()), Text.f("%.3f", c.baselineP99Ms()), Text.f("%.3f", c.candidateP99Ms()),
                            Text.f("%+.1f%%", c.p99ChangePercent()), Text.f("%.1f", c.baselineAchievedRps()),
                            Text.f("%.1f", c.candidateAchievedRps()));
                }
                md.blank();
            }
            for (ServingChange.Boundary b : r.slaBoundaries()) {
                md.line("- SLA p99 " + Text.plain(b.slaP99Ms()) + " ms, " + b.key() + ": max rate "
                        + (b.baselineMaxRateRps() == null ? "none" : Text.f("%.1f", b.baselineMaxRateRps())) + " -> "
                        + (b.candidateMaxRateRps() == null ? "none" : Text.f("%.1f", b.candidateMaxRateRps())) + " requests/s");
            }
            md.blank();
        }
        md.line("## Regime changes").blank();
        if (r.regimeChanges().isEmpty()) {
            md.line("None (a move between a borderline verdict and the regime across the threshold it straddles is not counted).");
        }
        r.regimeChanges().forEach(c -> md.line("- **" + c + "**"));
        md.blank();
        if (!charts.isEmpty()) {
            md.line("## Batch scaling, baseline vs candidate").blank();
            for (Charts.ChartFile chart : charts) {
                md.line("![" + chart.title() + "](" + dir.relativize(chart.png()).toString().replace('\\', '/') + ")").blank();
            }
        }
        md.line("## Method").blank();
        md.line("- Interval: " + r.method() + " (" + r.resamples() + " bootstrap replicates where it applies.)");
        md.line(Text.f("- Multiple comparisons: one regressed cell fails the gate, so the %d intervals are simultaneous at %s%% "
                + "(Bonferroni: each at %.3f%%).", r.intervals(), Text.plain(100 * r.confidenceLevel()), 100 * r.intervalConfidenceLevel()));
        md.line("- Verdict: **regressed** when the whole interval of the p50 or p99 change is above 0 and the change exceeds "
                + Text.plain(r.thresholdPercent()) + "%; **improved** is the mirror; a percentile that is not resolved is left "
                + "out; otherwise **no change**.");
        md.line("- Gate: a cell passes (**no regression shown**) only when its " + r.gate().percentiles().replace(",", " and ")
                + " interval lies wholly below " + Text.plain(r.thresholdPercent()) + "%; a regression at either percentile "
                + "fails it; anything else is **undecided** (exit code 4), never a pass.");
        return md.toString();
    }

    public static void printSummary(CompareResult r, PrintStream out) {
        out.println();
        if (r.overridden()) {
            out.println("[inferbench] WARNING: not comparable, compared because forced: " + String.join("; ", r.ruler().incomparable()));
        }
        r.ruler().differences().forEach(d -> out.println("[inferbench] differs: " + d));
        out.println(Text.f("%-40s %10s %10s %26s %26s  %s", "cell", "p50 base", "p50 cand", "p50 change [CI]",
                "p99 change [CI]", "verdict"));
        for (CompareResult.Row row : r.rows()) {
            out.println(Text.f("%-40s %10.3f %10.3f %26s %26s  %s",
                    row.backend() + "/" + row.device() + "/" + Text.shortModelName(row.model()) + "/seq" + row.seqLen() + "/b" + row.batch(),
                    row.p50().baselineMs(), row.p50().candidateMs(), change(row.p50()), change(row.p99()), row.verdict().label()));
        }
        r.onlyInBaseline().forEach(id -> out.println("[inferbench] only in the baseline: " + id));
        r.onlyInCandidate().forEach(id -> out.println("[inferbench] only in the candidate: " + id));
        r.regimeChanges().forEach(c -> out.println("[inferbench] regime changed: " + c));
        r.rows().stream().filter(row -> row.gate().decision() == GateDecision.UNDECIDED).forEach(row -> out.println(
                "[inferbench] undecided: " + row.backend() + "/" + Text.shortModelName(row.model()) + " " + Text.seq(row.seqLen())
                        + " batch " + row.batch() + ": " + row.gate().reason()));
        out.println(Text.f("[inferbench] compare %s (threshold %s%%; %d regressed, %d improved, %d no change, %d not resolved)",
                r.gate().headline(), Text.plain(r.thresholdPercent()), r.regressedCells(), r.improved(), r.unchanged(),
                r.notResolved()));
    }

    /** {@code +3.1% [-2.0, +8.5]}, or {@code +3.1%, not resolved (needs ≥ 100 passes per fork; ...)}. */
    static String change(ChangeEstimate e) {
        if (!e.resolved()) {
            return Text.f("%+.1f%%, not resolved (%s)", e.changePercent(), e.notResolved());
        }
        return Text.f("%+.1f%% [%+.1f, %+.1f]", e.changePercent(), e.ciLowPercent(), e.ciHighPercent());
    }
}
