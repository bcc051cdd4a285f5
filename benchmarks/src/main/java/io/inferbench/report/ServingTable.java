package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.ServingResult;
import io.inferbench.results.SlaBoundary;

import java.io.PrintStream;
import java.util.Comparator;
import java.util.Optional;

/** The console's lines for serving: one per load point as it finishes, then the SLA table. */
public final class ServingTable {
    private ServingTable() {
    }

    /** One load point: what it was, what got through, latency from intended start, and the forecast beside it. */
    public static String line(LoadPointResult p) {
        String what = switch (p.mode()) {
            case "closed-loop" -> "closed loop, " + p.concurrency() + " client(s)";
            default -> Text.f("%s, %s rps", p.policy(), Text.f("%.1f", p.rateRps()));
        };
        String latency = p.latencyFromIntendedMs() == null ? "no request completed"
                : Text.f("p50 %.3f ms, p99 %.3f ms", p.latencyFromIntendedMs().p50Ms(), p.latencyFromIntendedMs().p99Ms());
        String predicted = p.predicted() == null ? "" : Text.f(" (predicted p50 %.3f, p99 %.3f)", p.predicted().p50Ms(),
                p.predicted().p99Ms());
        return Text.f("[inferbench]   %-34s %s%s | %d sent, %d failed, %.1f rps achieved%s%s%s", what, latency, predicted,
                p.sent(), p.failed(), p.achievedRps(),
                p.meanBatchSize() == null || p.maxBatch() == 1 ? "" : Text.f(", mean batch %.2f", p.meanBatchSize()),
                p.sustained() ? "" : ", NOT SUSTAINED (" + p.lateSends() + " late sends)",
                "sla-step".equals(p.purpose()) ? " [SLA step]" : "");
    }

    public static void printSla(ServingResult serving, PrintStream out) {
        if (serving.slaBoundary().isEmpty()) {
            return;
        }
        out.println();
        out.println("Largest arrival rate with p99 (from intended start) at or under the SLA, per policy");
        out.println(Text.f("%-12s %-7s %-10s %-28s %9s %14s %14s %9s %9s %10s", "backend", "device", "model", "policy", "SLA ms",
                "max rate rps", "predicted rps", "p50 ms", "p99 ms", "mean batch"));
        for (SlaBoundary b : serving.slaBoundary()) {
            out.println(Text.f("%-12s %-7s %-10s %-28s %9s %14s %14s %9s %9s %10s", b.backend(), b.device(),
                    Text.shortModelName(b.model()), b.policy(), Text.plain(b.slaP99Ms()),
                    rate(b.maxRateRps()) + (Boolean.FALSE.equals(b.sustained()) ? "*" : ""),
                    rate(b.predictedMaxRateRps()), Text.number(b.p50Ms()), Text.number(b.p99Ms()),
                    b.meanBatchSize() == null ? "n/a" : Text.f("%.2f", b.meanBatchSize())));
        }
        if (serving.slaBoundary().stream().anyMatch(b -> Boolean.FALSE.equals(b.sustained()))) {
            out.println("* the generator fell behind its schedule for more than 1% of that point's requests; its lateness is in the p99");
        }
        best(serving).ifPresent(b -> out.println("[inferbench] most load under the SLA: " + b.policy() + " on " + b.backend()
                + "/" + b.device() + "/" + Text.shortModelName(b.model()) + Text.f(", %.1f requests/s", b.maxRateRps())));
    }

    /** The policy that carried the highest rate within the SLA. */
    public static Optional<SlaBoundary> best(ServingResult serving) {
        return serving.slaBoundary().stream().filter(b -> b.maxRateRps() != null)
                .max(Comparator.comparingDouble(SlaBoundary::maxRateRps));
    }

    private static String rate(Double rps) {
        return rps == null ? "none" : Text.f("%.1f", rps);
    }
}
