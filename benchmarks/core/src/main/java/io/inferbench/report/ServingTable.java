package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.ServingResult;
import io.inferbench.results.SlaBoundary;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
                : Text.f("p50 %.3f ms, p99 %s%.3f ms", p.latencyFromIntendedMs().p50Ms(), p.p99LowerBound() ? ">= " : "",
                p.latencyFromIntendedMs().p99Ms());
        String predicted = p.predicted() == null ? "" : Text.f(" (predicted p50 %.3f, p99 %.3f%s)", p.predicted().p50Ms(),
                p.predicted().p99Ms(), p.predicted().servedPassRatio() == null ? "" : "; " + servedPasses(p.predicted()));
        return Text.f("[inferbench]   %-34s %s%s | %d sent, %d failed (error rate %s), %.1f rps achieved%s%s%s", what, latency,
                predicted, p.sent(), p.failed(), errorRate(p.errorRate()), p.achievedRps(),
                p.meanBatchSize() == null || p.maxBatch() == 1 ? "" : Text.f(", mean batch %.2f", p.meanBatchSize()),
                (p.overloaded() ? ", OVERLOADED: " + p.overloadReason() : "")
                        + (p.generatorLimited() ? Text.f(", GENERATOR-LIMITED: sent %.1f/s of %.1f/s", p.sentRps(), p.offeredRps())
                        : p.paced() ? "" : ", " + p.lateSends() + " sends over 1 ms late"),
                gcPauses(p) + ("sla-step".equals(p.purpose()) ? " [SLA step]" : "") + targetStages(p));
    }

    /** {@code ; stages p50: prepare 0.1, tokenize 0.2, ...}: a target's own stages at the point; empty for an engine. */
    static String targetStages(LoadPointResult p) {
        if (p.stagesMs() == null || p.stagesMs().keySet().stream().noneMatch(k -> k.startsWith(StagesReport.FORWARD_PART))) {
            return "";
        }
        return "; stages p50 (ms): prepare " + Text.f("%.3f", p.stagesMs().get("prepare").p50Ms()) + ", " + String.join(", ",
                p.stagesMs().entrySet().stream().filter(e -> e.getKey().startsWith(StagesReport.FORWARD_PART))
                        .map(e -> e.getKey().substring(StagesReport.FORWARD_PART.length()) + " " + Text.f("%.3f", e.getValue().p50Ms()))
                        .toList());
    }

    /** An error rate as a percentage, with enough digits to show one failure in 100,000. */
    static String errorRate(double rate) {
        return rate == 0 ? "0%" : Text.f("%.3f%%", 100 * rate);
    }

    /** {@code , GC paused 2x (max 15 ms)}: the JVM's collections during the point; empty when none or not known. */
    static String gcPauses(LoadPointResult p) {
        if (p.resources() == null || p.resources().gc() == null || p.resources().gc().collections() == 0) {
            return "";
        }
        return Text.f(", GC paused %dx (max %.0f ms)", p.resources().gc().collections(), p.resources().gc().maxMs());
    }

    public static void printSla(ServingResult serving, PrintStream out) {
        if (serving.slaBoundary().isEmpty()) {
            return;
        }
        out.println();
        out.println("Largest arrival rate with p99 (from intended start) at or under the SLA, per policy");
        out.println(Text.f("%-12s %-7s %-10s %-28s %9s %14s %14s %11s %32s %9s %9s %10s", "backend", "device", "model", "policy",
                "SLA ms", "max rate rps", "predicted rps", "pred/meas", "re-sim/meas", "p50 ms", "p99 ms", "mean batch"));
        for (SlaBoundary b : serving.slaBoundary()) {
            out.println(Text.f("%-12s %-7s %-10s %-28s %9s %14s %14s %11s %32s %9s %9s %10s", b.backend(), b.device(),
                    Text.shortModelName(b.model()), b.policy(), Text.plain(b.slaP99Ms()), rateCell(b),
                    rate(b.predictedMaxRateRps()), b.predictedToMeasured() == null ? "n/a" : Text.f("%.2fx", b.predictedToMeasured()),
                    resimulated(b),
                    Text.number(b.p50Ms()), Text.number(b.p99Ms()),
                    b.meanBatchSize() == null ? "n/a" : Text.f("%.2f", b.meanBatchSize())));
        }
        for (String footnote : footnotes(serving)) {
            out.println(footnote);
        }
        best(serving).ifPresent(b -> out.println("[inferbench] most load under the SLA: " + b.policy() + " on " + b.backend()
                + "/" + b.device() + "/" + Text.shortModelName(b.model()) + Text.f(", %.1f requests/s", b.maxRateRps())));
    }

    /** The policy that carried the highest rate within the SLA. */
    public static Optional<SlaBoundary> best(ServingResult serving) {
        return best(serving.slaBoundary());
    }

    /** The boundary with the highest rate under the SLA, of those that have one. */
    static Optional<SlaBoundary> best(List<SlaBoundary> boundaries) {
        return boundaries.stream().filter(b -> b.maxRateRps() != null).max(Comparator.comparingDouble(SlaBoundary::maxRateRps));
    }

    /**
     * The boundary's rate with its kind: {@code >= X} for a lower bound, {@code X gen} where the load generator, not the
     * model, was the limit, {@code none >= F} when no rate down to the floor met the SLA.
     */
    static String rateCell(SlaBoundary b) {
        if (b.maxRateRps() == null) {
            return Text.f("none >= %.2f", b.floorRps());
        }
        return (SlaBoundary.LOWER_BOUND.equals(b.boundary()) ? ">= " : "") + rate(b.maxRateRps())
                + (Boolean.TRUE.equals(b.generatorLimited()) ? " gen" : "");
    }

    /** What the marks of {@link #rateCell} mean, for the boundaries that carry them. */
    static List<String> footnotes(ServingResult serving) {
        List<String> notes = new ArrayList<>();
        if (serving.slaBoundary().stream().anyMatch(b -> SlaBoundary.LOWER_BOUND.equals(b.boundary()))) {
            notes.add(">= every rate the search tried met the SLA: the boundary is at least this, and was not found");
        }
        if (serving.slaBoundary().stream().anyMatch(b -> Boolean.TRUE.equals(b.generatorLimited()))) {
            notes.add("gen: the load generator, not the model, was the limit at that rate (it sent more than 2% slower than "
                    + "the schedule); the model may carry more, on a machine with a core to spare for the generator");
        }
        if (serving.slaBoundary().stream().anyMatch(b -> b.servedPassRatio() != null)) {
            notes.add("re-sim: the simulated boundary again with every pass drawn as the boundary's point served them (the "
                    + "forecast's median at the batch's size times a ratio drawn from that point's served/forecast ratios, whose "
                    + "median and p99 are shown): a diagnostic, not a forecast. Near 1.00x, the queueing model holds and the "
                    + "forecast's miss is the passes being slower or heavier-tailed served than measured one at a time");
        }
        if (serving.slaBoundary().stream().anyMatch(b -> b.maxRateRps() == null)) {
            notes.add("none: no rate down to the search's floor (200 requests in its longest step, 60 s) met the SLA");
        }
        return notes;
    }

    /** One boundary as the search ends: the answer, its kind, and how far the simulation was off. */
    public static String boundaryLine(SlaBoundary b) {
        String answer = b.maxRateRps() == null
                ? Text.f("no rate down to the floor of %.2f requests/s met the SLA", b.floorRps())
                : Text.f("%s%.1f requests/s%s", SlaBoundary.LOWER_BOUND.equals(b.boundary()) ? "at least " : "", b.maxRateRps(),
                SlaBoundary.LOWER_BOUND.equals(b.boundary()) ? " (every rate tried passed)" : "");
        String limited = Boolean.TRUE.equals(b.generatorLimited())
                ? "; the load generator, not the model, was the limit there" : "";
        String ratio = (b.predictedToMeasured() == null ? "" : Text.f("; predicted/measured %.2fx%s", b.predictedToMeasured(),
                b.speedCheckRatio() == null ? "" : Text.f(" (passes re-timed before the search: x%.2f the sweep's alone%s)",
                        b.speedCheckRatio(), b.loadedCheckRatio() == null ? "" : Text.f(", x%.2f served at %.1f requests/s%s",
                                b.loadedCheckRatio(), b.loadedCheckRps(), stalls(b)))))
                + (b.servedPassRatio() == null ? "" : Text.f("; with the passes as served there (x%.2f the forecast's "
                + "median, p99 x%.2f), re-simulated %s", b.servedPassRatio(), b.servedPassP99Ratio(),
                b.resimulatedMaxRateRps() == null ? "none down to the floor" : Text.f("%.1f requests/s, %.2fx",
                        b.resimulatedMaxRateRps(), b.resimulatedToMeasured())));
        String energy = (b.cpuJoulesPerRequest() == null ? "" : Text.f("; %.4f J per request (CPU package)", b.cpuJoulesPerRequest()))
                + (b.gpuJoulesPerRequest() == null ? "" : Text.f("; %.4f J per request (GPU)", b.gpuJoulesPerRequest()));
        return "[inferbench] SLA boundary, " + b.policy() + ": " + answer + limited + ratio + energy;
    }

    /**
     * {@code passes served x1.02, p99 x3.10}: the point's served passes over the forecast's median at the same batch size,
     * at their median and their 99th percentile; only where {@code servedPassRatio} was measured.
     */
    static String servedPasses(LoadPointResult.Prediction p) {
        return Text.f("passes served x%.2f, p99 x%.2f", p.servedPassRatio(), p.servedPassP99Ratio());
    }

    /**
     * The generator's stalls in the loaded check, which the forecast replayed: "" where not checked (runs from before
     * they were recorded), so that older runs read as they did.
     */
    static String stalls(SlaBoundary b) {
        return b.generatorStalledPercent() == null ? "" : Text.f("; generator stalled %.1f%% of it, longest %.1f ms",
                b.generatorStalledPercent(), b.generatorLongestStallMs());
    }

    /** {@code 1.07x (passes x1.02, p99 x3.10)}: the re-simulated boundary over the measured one, with the passes it drew. */
    static String resimulated(SlaBoundary b) {
        return b.servedPassRatio() == null ? "n/a" : Text.f("%s (passes x%.2f, p99 x%.2f)", b.resimulatedToMeasured() == null
                ? "none" : Text.f("%.2fx", b.resimulatedToMeasured()), b.servedPassRatio(), b.servedPassP99Ratio());
    }

    private static String rate(Double rps) {
        return rps == null ? "none" : Text.f("%.1f", rps);
    }
}
