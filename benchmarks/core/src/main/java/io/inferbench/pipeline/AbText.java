package io.inferbench.pipeline;

import io.inferbench.Text;
import io.inferbench.compare.PairedAnalysis;
import io.inferbench.compare.PairedChange;
import io.inferbench.results.AbSection;
import io.inferbench.runner.DuetCpus;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What an A/B run ({@link AbStage}) says to people: the line after each pair, the table at the end, and ab.md's
 * opening lines. Subjects are named by their short model names or their code's SHA-256, never by a record's
 * {@code toString()}.
 */
final class AbText {
    private AbText() {
    }

    static String subjects(AbSection section) {
        return section.sameSubject() ? "A/A" : "A " + name(section.subjects().get(0)) + ", B " + name(section.subjects().get(1));
    }

    static String name(AbSection.Subject subject) {
        if (subject.targets() != null && !subject.targets().isEmpty()) {
            String sha = subject.targets().get(0).sha256();
            return "code " + (sha == null ? "?" : sha.substring(0, Math.min(8, sha.length())));
        }
        return String.join(",", subject.models().stream().map(m -> Text.shortModelName(m.name())).toList());
    }

    /** ab.md's lines before its table: the subjects, what differs, how the pairs were measured. */
    static List<String> header(AbSection section, boolean passes, DuetCpus duet) {
        List<String> lines = new ArrayList<>();
        lines.add(section.sameSubject() ? "**A/A run**: A and B are the same subject (" + name(section.subjects().get(1))
                + "); any `slower` or `faster` here is a false alarm."
                : "**A** " + name(section.subjects().get(0)) + ", **B** " + name(section.subjects().get(1)) + ". What differs: "
                + Text.shorten(String.join("; ", section.differences()), 600) + ".");
        lines.add((passes ? "Measured in fork JVMs that each held A's session and B's, one pair per fork, their passes "
                + "alternating in an order drawn per pass" : duet == null ? "Measured in pairs of fork JVMs, A's and B's back to back in an order drawn per pair"
                : "Measured in pairs of fork JVMs, A's and B's at the same time (a duet), each pinned to its own half of the "
                + "cores, which half drawn per pair") + ", on the same machine in the same run; run.json holds every pair, "
                + "and A's own run is " + section.subjects().get(0).runFile() + ".");
        return lines;
    }

    static String pairLine(int pair, String how, long pairNs, long elapsedNs, PairedAnalysis.AbResult r, int open) {
        StringBuilder line = new StringBuilder(Text.f("[inferbench] A/B pair %d (%s, %.0f s): ", pair, how, pairNs / 1e9));
        if (r.cells().size() <= 4) {
            List<String> cells = new ArrayList<>();
            for (PairedAnalysis.Cell c : r.cells()) {
                Integer more = c.gate() == null || c.stop() != null ? null : c.gate().moreToDecide();
                cells.add(Text.seq(c.seqLen()) + " batch " + c.batch() + " p50 " + change(c.p50(), c.failed())
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

    static String change(PairedChange c, String failed) {
        if (failed != null) {
            return "FAILED";
        }
        if (c == null) {
            return "no pair yet";
        }
        return c.ciLowPercent() == null ? Text.f("%+.1f%% (too few pairs)", c.changePercent())
                : Text.f("%+.1f%% [%+.1f, %+.1f] %s", c.changePercent(), c.ciLowPercent(), c.ciHighPercent(),
                c.regression() ? "REGRESSION" : c.verdict().label());
    }

    static void printTable(PairedAnalysis.AbResult r, String overall, PrintStream console) {
        console.println();
        console.println(Text.f("A/B: B against A, %d cells, intervals simultaneous at %s%% (each %.2f%%), threshold %s%%; "
                        + "pairs stopped: %s", r.cells().size(), Text.plain(100 * r.confidenceLevel()),
                100 * r.intervalConfidenceLevel(), Text.plain(r.thresholdPercent()), overall));
        console.println(Text.f("  %-10s %5s %5s %6s  %-38s %-11s  %-38s  %s", "backend", "seq", "batch", "pairs", "p50 change [CI] verdict",
                "detectable", "p99 change [CI] verdict", "gate"));
        for (PairedAnalysis.Cell c : r.cells()) {
            console.println(Text.f("  %-10s %5s %5d %6d  %-38s %-11s  %-38s  %s", Text.shorten(c.backend(), 10),
                    Text.seqValue(c.seqLen()), c.batch(), c.pairs(), change(c.p50(), c.failed()),
                    c.p50() == null || c.p50().detectablePercent() == null ? "-" : Text.f("%.1f%%", c.p50().detectablePercent()),
                    change(c.p99(), c.failed()), c.gate().decision().label()));
        }
        r.cells().stream().filter(c -> c.failed() != null || c.note() != null).forEach(c -> console.println("  "
                + c.shape() + ": " + (c.failed() != null ? Text.shorten(c.failed(), 300) : c.note())));
        r.undecided().forEach(c -> console.println("  " + c.shape() + " undecided: " + c.gate().reason() + "; "
                + PairedAnalysis.toDecide(c, r.secondsPerPair())));
    }
}
