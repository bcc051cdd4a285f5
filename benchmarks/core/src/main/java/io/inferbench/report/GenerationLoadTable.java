package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.measure.LatencySummary;
import io.inferbench.results.GenerationServing;

import java.io.PrintStream;
import java.util.List;

/**
 * The console's lines for generation under load: one per point as it finishes, the boundary of each SLO search, then a
 * table per engine, device and model with a row per policy and rate, and the answer.
 */
public final class GenerationLoadTable {
    private GenerationLoadTable() {
    }

    /** One point: TTFT, TPOT and e2e from intended send, the queue wait, the batches formed, and the forecast. */
    public static String line(GenerationServing.Point p) {
        GenerationServing.Latencies l = p.latency();
        GenerationServing.Requests r = p.requests();
        return Text.f("[inferbench]   %-11s %6.1f rps  TTFT p50 %s p99 %s | TPOT p50 %s p99 %s | queue p50 %s | steps at "
                        + "%s rows%s | %d sent, %d failed, %d unfinished%s%s%s%s", p.served().policy(), p.load().rateRps(),
                ms(l.ttftMs(), false), ms(l.ttftMs(), true), ms(l.tpotMs(), false), ms(l.tpotMs(), true),
                ms(l.queueWaitMs(), false), p.formed().meanStepRows() == null ? "-" : Text.f("%.1f", p.formed().meanStepRows()),
                p.formed().relayoutMs() > 0 ? Text.f(", cache re-laid %.0f ms", p.formed().relayoutMs()) : "",
                r.sent(), r.failed(), r.unfinished(),
                p.forecast() == null || p.forecast().ttftP50Ms() == null ? "" : Text.f(" (forecast TTFT p50 %.2f p99 %.2f%s)",
                        p.forecast().ttftP50Ms(), p.forecast().ttftP99Ms(), p.forecast().tpotP99Ms() == null ? ""
                                : Text.f(", TPOT p99 %.2f", p.forecast().tpotP99Ms())),
                p.slo() == null ? "" : p.slo().met() ? Text.f(", SLO met, goodput %.1f rps", p.slo().goodputRps())
                        : Text.f(", SLO missed, goodput %.1f rps", p.slo().goodputRps()),
                r.overloaded() ? ", OVERLOADED: " + r.overload() : "",
                "slo-step".equals(p.load().purpose()) ? " [SLO step]" : "");
    }

    /** The boundary an SLO search found for one policy. */
    public static String boundaryLine(GenerationServing.Boundary b) {
        return Text.f("[inferbench] SLO boundary, %s batching: %s%s%s", b.served().policy(), b.rateRps() == null
                        ? "none down to the floor" : Text.f("%.1f requests/s (%s), goodput %.1f", b.rateRps(), b.boundary(),
                        b.goodputRps()), b.forecastRps() == null ? "" : Text.f("; forecast %.1f", b.forecastRps()),
                b.verdict() == null ? "" : "; " + b.verdict());
    }

    /** The table of every point asked (not the search's steps), then the answer. */
    public static void print(GenerationServing serving, PrintStream out) {
        if (serving == null) {
            return;
        }
        List<GenerationServing.Point> asked = serving.points().stream().filter(p -> "point".equals(p.load().purpose())).toList();
        if (!asked.isEmpty()) {
            out.println();
            out.println("[inferbench] generation under load (ms from intended send; p99 TTFT/TPOT, forecast in brackets):");
            out.println(Text.f("[inferbench]   %-28s %-11s %8s %16s %16s %9s %9s %10s %s", "model", "policy", "rate",
                    "TTFT p50/p99", "TPOT p50/p99", "e2e p99", "queue p99", "step rows", "kept up"));
            for (GenerationServing.Point p : asked) {
                GenerationServing.Latencies l = p.latency();
                out.println(Text.f("[inferbench]   %-28s %-11s %8.1f %16s %16s %9s %9s %10s %s",
                        p.served().backend() + "/" + Text.shortModelName(p.served().model()), p.served().policy(),
                        p.load().rateRps(), ms(l.ttftMs(), false) + "/" + ms(l.ttftMs(), true)
                                + (p.forecast() == null || p.forecast().ttftP99Ms() == null ? ""
                                : Text.f(" (%.2f)", p.forecast().ttftP99Ms())),
                        ms(l.tpotMs(), false) + "/" + ms(l.tpotMs(), true), ms(l.e2eMs(), true), ms(l.queueWaitMs(), true),
                        p.formed().meanStepRows() == null ? "-" : Text.f("%.2f", p.formed().meanStepRows()),
                        p.requests().overloaded() ? "OVERLOADED" : "yes"));
            }
        }
        if (serving.answer() != null) {
            out.println("[inferbench] answer: " + serving.answer().replace("\n", "\n[inferbench] answer: "));
        }
    }

    private static String ms(LatencySummary s, boolean p99) {
        return s == null ? "-" : Text.f("%.2f", p99 ? s.p99Ms() : s.p50Ms());
    }
}
