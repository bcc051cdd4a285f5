package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.measure.LatencySummary;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.ServingResult;
import io.inferbench.results.SlaBoundary;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * report.md's serving section: the conditions, which policy carries the most load under the SLA, every load point
 * with the forecast beside the measurement, where the time goes by stage, and the plots.
 */
public final class ServingReport {
    private ServingReport() {
    }

    public static void section(Markdown md, ServingResult serving, List<Charts.ChartFile> charts, Path reportDir) {
        if (serving == null) {
            return;
        }
        md.line("## Serving under load").blank();
        md.line("Latency counts from each request's intended start (its scheduled arrival; for closed-loop clients, when the "
                + "previous request returned), so a stall shows in every request it delays. Service time is the raw time from "
                + "the request's batch start to its result. Predictions come from a discrete-event simulation of the same "
                + "arrivals and policy, with each pass drawn from the sweep's steady passes (or the serving warm-up's, where the "
                + "sweep cannot price a batch) and concurrent passes sharing the cores; it leaves out thread wake-ups and the "
                + "load generator's and batcher's own share of the cores, so the gap between the two is those.").blank();
        for (ServingResult.ServingConditions c : serving.conditions()) {
            md.line("- " + c.backend() + " on " + c.device() + ", model " + Text.shortModelName(c.model()) + ": " + Text.seq(c.seqLen())
                    + ", " + c.samplesPerRequest() + " sample(s) per request, " + c.arrivals() + " arrivals (seed " + c.seed()
                    + "), " + Text.plain(c.pointSeconds()) + " s per point. Shared: " + c.sharing() + ". Threads: " + c.note() + ".");
        }
        md.blank();
        if (!serving.slaBoundary().isEmpty()) {
            md.line("### SLA boundary").blank();
            ServingTable.best(serving).ifPresent(b -> md.line(Text.f("**%s carries the most load under the SLA**: %.1f "
                    + "requests/s with p99 %.3f ms (%s on %s, %s).", b.policy(), b.maxRateRps(), b.p99Ms(), b.backend(),
                    b.device(), Text.shortModelName(b.model()))).blank());
            md.header(new String[] {"backend", "device", "model", "policy", "SLA p99 (ms)", "max rate (req/s)",
                "predicted max rate", "predicted / measured", "re-simulated / measured", "p50 (ms)", "p99 (ms)",
                "mean batch", "limited by", "CPU (% of machine)", "J per request (CPU package / GPU)",
                "search steps (rate: p99, length)"},
                    false, false, false, false, true, true, true, true, true, true, true, true, false, true, true, false);
            for (SlaBoundary b : serving.slaBoundary()) {
                md.row(b.backend(), b.device(), Text.shortModelName(b.model()), b.policy(), Text.plain(b.slaP99Ms()),
                        ServingTable.rateCell(b),
                        b.predictedMaxRateRps() == null ? "n/a" : Text.f("%.1f", b.predictedMaxRateRps()),
                        b.predictedToMeasured() == null ? "n/a" : Text.f("%.2fx%s", b.predictedToMeasured(),
                                b.speedCheckRatio() == null ? "" : Text.f(" (speed check: passes x%.2f alone%s)",
                                        b.speedCheckRatio(), b.loadedCheckRatio() == null ? ""
                                                : Text.f(", x%.2f served%s", b.loadedCheckRatio(),
                                                ServingTable.stalls(b)))),
                        ServingTable.resimulated(b), Text.number(b.p50Ms()), Text.number(b.p99Ms()),
                        b.meanBatchSize() == null ? "n/a" : Text.f("%.2f", b.meanBatchSize()), limitedBy(b),
                        b.cpuPercentOfMachine() == null ? "-" : Text.f("%.0f%%", b.cpuPercentOfMachine()),
                        joules(b.cpuJoulesPerRequest()) + " / " + joules(b.gpuJoulesPerRequest()),
                        b.steps().stream().map(s -> Text.f("%.1f: %s ms%s%s, %.1f s / %d req", s.rateRps(),
                                s.p99Ms() == null ? "n/a" : Text.f("%.2f", s.p99Ms()), s.metSla() ? " ok" : "",
                                s.overloaded() ? " overloaded" : "", s.seconds(), s.requests())).collect(Collectors.joining("; ")));
            }
            md.blank();
            for (String footnote : ServingTable.footnotes(serving)) {
                md.line("- " + footnote);
            }
            md.line("- J per request: " + energyNote(serving));
            md.blank();
        }
        if (serving.closedLoopKnee() != null && !serving.closedLoopKnee().isEmpty()) {
            md.line("### Closed-loop knee").blank();
            md.line(Text.f("The concurrency after which doubling the clients raises throughput by less than %.0f%%, with the "
                    + "doubling beside it.", io.inferbench.results.ServingResult.KNEE_GAIN_PERCENT)).blank();
            for (io.inferbench.results.ServingResult.ConcurrencyKnee k : serving.closedLoopKnee()) {
                md.line("- " + k.backend() + " " + k.device() + " " + Text.shortModelName(k.model()) + ": " + k.reason());
            }
            md.blank();
        }
        if (serving.slaMaxErrorRate() != null && serving.slaMaxErrorRate() > 0) {
            md.line(Text.f("A point meets the SLA with at most %s of its requests failed (`-Dbench.sla.maxErrorRate`).",
                    ServingTable.errorRate(serving.slaMaxErrorRate()))).blank();
        }
        md.line("### Load points").blank();
        if (serving.points().stream().anyMatch(p -> p.predicted() != null && p.predicted().servedPassRatio() != null)) {
            md.line("Predicted: the simulator on the same arrivals, with the sweep's passes. In brackets, measured after the "
                    + "point: its batches' service over the forecast's median pass at the same batch size (median and p99 of "
                    + "those ratios), and, in open loop, the point replayed on its own send times with passes drawn "
                    + "independently as it served them. A replayed p99 well under the measured one means the passes' "
                    + "slowness came in spells (the machine's speed moving, stalls in clusters), which no forecast from "
                    + "independent draws reproduces.").blank();
        }
        md.header(new String[] {"backend", "model", "mode", "policy", "rate asked (req/s)", "sent", "completed", "failed",
            "error rate", "achieved (req/s)", "p50 (ms)", "p99 (ms)", "predicted p50 / p99", "service p99 (ms)", "mean batch",
            "CPU (% of machine)", "J per request (CPU / GPU)", "GPU busy", "GC pauses (count, max ms)", "sustained"},
                false, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true,
                false);
        for (LoadPointResult p : serving.points()) {
            LatencySummary l = p.latencyFromIntendedMs();
            md.row(p.backend(), Text.shortModelName(p.model()), p.mode() + ("sla-step".equals(p.purpose()) ? " (SLA step)" : ""),
                    "closed-loop".equals(p.mode()) ? p.concurrency() + " client(s)" : p.policy(),
                    p.rateRps() == null ? "-" : Text.f("%.1f", p.rateRps()), Long.toString(p.sent()), Long.toString(p.completed()),
                    Long.toString(p.failed()), ServingTable.errorRate(p.errorRate()), Text.f("%.1f", p.achievedRps()), l == null ? "n/a" : Text.f("%.3f", l.p50Ms()),
                    l == null ? "n/a" : Text.f("%s%.3f", p.p99LowerBound() ? ">= " : "", l.p99Ms()), p.predicted() == null ? "n/a"
                            : Text.f("%.3f / %.3f%s", p.predicted().p50Ms(), p.predicted().p99Ms(),
                            p.predicted().servedPassRatio() == null ? "" : " (" + ServingTable.servedPasses(p.predicted())
                                    + (p.predicted().replayedP99Ms() == null ? ""
                                    : Text.f("; replayed p99 %.3f", p.predicted().replayedP99Ms()))
                                    + (p.predicted().replayedInTimeP99Ms() == null ? ""
                                    : Text.f(", in time %.3f", p.predicted().replayedInTimeP99Ms())) + ")"),
                    p.serviceTimeMs() == null ? "n/a" : Text.f("%.3f", p.serviceTimeMs().p99Ms()),
                    p.meanBatchSize() == null ? "-" : Text.f("%.2f", p.meanBatchSize()),
                    p.resources() == null || p.resources().cpu() == null ? "-" : Text.f("%.0f%%", p.resources().cpu().utilisationPercent()),
                    p.resources() == null ? "-" : joules(p.resources().cpuJoulesPerRequest()) + " / "
                            + joules(p.resources().gpuJoulesPerRequest()),
                    p.resources() == null || p.resources().gpu() == null || p.resources().gpu().utilisationMeanPercent() == null ? "-"
                            : Text.f("%.0f%%", p.resources().gpu().utilisationMeanPercent()),
                    p.resources() == null || p.resources().gc() == null ? "-" : p.resources().gc().collections() == 0 ? "0"
                            : Text.f("%d, %.0f", p.resources().gc().collections(), p.resources().gc().maxMs()),
                    sustained(p));
        }
        md.blank();
        md.line("### Where the time goes").blank();
        md.line("Each stage's p50 / p99 in ms, per request; a request's stages add up to its latency from intended start: "
                + "generator lag (sent minus intended), worker wait (until the worker that served it was free), batcher hold "
                + "(from then until its batch started), tokenize (text workloads: the batch's, which every member waits "
                + "for), prepare (input tensors), forward (the synchronized pass), fetch (reading the output and splitting it "
                + "per request).").blank();
        md.header(new String[] {"mode", "policy", "rate asked", "generator lag", "worker wait", "batcher hold", "tokenize",
            "prepare", "forward", "fetch", "batches formed (size: count)"},
                false, false, true, true, true, true, true, true, true, true, false);
        for (LoadPointResult p : serving.points()) {
            if (!"point".equals(p.purpose()) || p.stagesMs().isEmpty()) {
                continue;
            }
            Map<String, LatencySummary> s = p.stagesMs();
            md.row(p.mode(), "closed-loop".equals(p.mode()) ? p.concurrency() + " client(s)" : p.policy(),
                    p.rateRps() == null ? "-" : Text.f("%.1f", p.rateRps()), stage(s.get("generatorLag")), stage(s.get("workerWait")),
                    stage(s.get("batcherHold")), s.containsKey("tokenize") ? stage(s.get("tokenize")) : "-", stage(s.get("prepare")), stage(s.get("forward")), stage(s.get("fetch")),
                    p.batchSizes().entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", ")));
        }
        md.blank();
        StagesReport.servingSection(md, serving);
        SustainedReport.section(md, serving);
        for (Charts.ChartFile chart : charts) {
            md.line("![" + chart.title() + "](" + reportDir.relativize(chart.png()).toString().replace('\\', '/') + ")").blank();
        }
    }

    /** What set the boundary's rate: the SLA (the model), or the load generator. */
    private static String limitedBy(SlaBoundary b) {
        if (b.maxRateRps() == null) {
            return "n/a";
        }
        if (Boolean.TRUE.equals(b.generatorLimited())) {
            return "the load generator, not the model (it sent slower than the schedule)";
        }
        return SlaBoundary.LOWER_BOUND.equals(b.boundary()) ? "not found: every rate tried passed" : "the SLA";
    }

    /** yes, or what went wrong: the model overloaded, the generator fell behind. */
    private static String sustained(LoadPointResult p) {
        if (p.sustained()) {
            return "yes";
        }
        List<String> why = new java.util.ArrayList<>();
        if (p.overloaded()) {
            why.add("overloaded: " + p.overloadReason() + (p.p99LowerBound() ? "; p99 is a lower bound (unfinished requests "
                    + "count to the drain limit)" : ""));
        }
        if (p.generatorLimited()) {
            why.add(Text.f("the load generator could not keep the schedule (sent %.1f/s of %.1f/s)", p.sentRps(), p.offeredRps()));
        } else if (!p.paced()) {
            why.add(p.lateSends() + " sends over 1 ms late (their lateness is in the latency)");
        }
        return "no, " + String.join("; ", why);
    }

    private static String stage(LatencySummary s) {
        return s == null ? "n/a" : Text.f("%.3f / %.3f", s.p50Ms(), s.p99Ms());
    }

    private static String joules(Double j) {
        return j == null ? "-" : Text.f("%.4f", j);
    }

    /** Where the energy per request comes from, or why it is missing: the first point's readings say. */
    static String energyNote(io.inferbench.results.ServingResult serving) {
        var read = serving.points().stream().map(LoadPointResult::resources).filter(java.util.Objects::nonNull).findFirst();
        if (read.isEmpty()) {
            return "not recorded (a run before serving points read their resources)";
        }
        var r = read.get();
        String cpu = r.energy() == null ? "CPU package: not read" : r.energy().unavailable() == null
                ? "CPU package from " + r.energy().source() : "CPU package not available (" + r.energy().unavailable() + ")";
        String gpu = r.gpu() == null ? "no GPU" : r.gpu().unavailable() == null
                ? "GPU board power sampled by nvidia-smi every 100 ms, times the point's time"
                : "GPU not sampled (" + r.gpu().unavailable() + ")";
        return cpu + "; " + gpu + ". Per completed request over the whole point, idle time included: at a low rate most of "
                + "it is the idle draw";
    }
}
