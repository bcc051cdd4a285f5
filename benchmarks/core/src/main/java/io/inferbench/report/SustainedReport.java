package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.AblationResult;
import io.inferbench.results.ServingResult;
import io.inferbench.results.SoakResult;


/** report.md's soak and ablation parts of the serving section: the windows and trends, the parts and their costs. */
final class SustainedReport {
    private SustainedReport() {
    }

    static void section(Markdown md, ServingResult serving) {
        if (serving.soak() != null) {
            for (SoakResult soak : serving.soak()) {
                soak(md, soak);
            }
        }
        if (serving.ablation() != null) {
            for (AblationResult ablation : serving.ablation()) {
                ablation(md, ablation);
            }
        }
    }

    private static void soak(Markdown md, SoakResult soak) {
        md.line(Text.f("### Soak: %s on %s, %s", soak.backend(), soak.device(), Text.shortModelName(soak.model()))).blank();
        if (soak.windows().isEmpty()) {
            md.line("Not run: " + soak.rateSource() + ".").blank();
            return;
        }
        md.line(Text.f("One open-loop load at %.1f requests/s (%s), %s, for %s s, cut into windows of %s s by intended "
                        + "send time. Latency counts from the intended send; memory is read at each window's end, nothing "
                        + "forced. Trends: Theil-Sen's slope over the windows, Sen's 95%% interval, Mann-Kendall's test; "
                        + "a trend is called when the test rejects \"no trend\" at 5%% and the rate is at least its floor.",
                soak.rateRps(), soak.rateSource(), soak.policy(), Text.plain(soak.seconds()),
                Text.plain(soak.windowSeconds()))).blank();
        md.line(Text.f("- **Latency: %s.** %s; first window p50 %s ms, last %s ms.",
                soak.latencyTrend().verdict(), soak.latencyTrend().reason(), Text.number(soak.latencyTrend().firstMs(), 3),
                Text.number(soak.latencyTrend().lastMs(), 3)));
        md.line(Text.f("- **Memory: %s.** %s; first window %s MiB resident, last %s MiB.", soak.memoryTrend().verdict(),
                soak.memoryTrend().reason(), Text.number(soak.memoryTrend().firstMb(), 1),
                Text.number(soak.memoryTrend().lastMb(), 1)));
        md.line(Text.f("- **Errors:** %d of %d failed (error rate %s).", soak.failed(), soak.sent(),
                ServingTable.errorRate(soak.errorRate())));
        soak.notes().forEach(n -> md.line("- Note: " + n + "."));
        md.blank();
        md.header(new String[] {"from (s)", "sent", "errors", "error rate", "p50 (ms)", "p99 (ms)", "max (ms)", "rps",
            "RSS (MiB)", "heap after GC (MiB)", "direct (MiB)", "GPU memory (MiB)"},
                true, true, true, true, true, true, true, true, true, true, true, true);
        for (SoakResult.Window w : soak.windows()) {
            md.row(Text.plain(w.startSeconds()), Long.toString(w.sent()), Long.toString(w.errors()),
                    ServingTable.errorRate(w.errorRate()), Text.number(w.p50Ms(), 3), Text.number(w.p99Ms(), 3),
                    Text.number(w.maxMs(), 3), Text.f("%.1f", w.rps()), Text.number(w.rssMb(), 1),
                    Text.number(w.heapMb(), 1), Text.number(w.directMb(), 1), Text.number(w.gpuMemoryMb(), 0));
        }
        md.blank();
    }

    private static void ablation(Markdown md, AblationResult ablation) {
        md.line(Text.f("### Ablation: %s on %s, %s", ablation.backend(), ablation.device(),
                Text.shortModelName(ablation.model()))).blank();
        if (ablation.parts().isEmpty()) {
            md.line("Not run: " + ablation.rateSource() + ".").blank();
            return;
        }
        md.line(Text.f("The same open-loop load, on the same seeded arrivals at %.1f requests/s (%s), %s, %s s per part, "
                        + "with one part of the path replaced at a time. Each part's cost is the mean of the two full runs "
                        + "less the replacement's; the stages are the full runs' own breakdown of the same requests.",
                ablation.rateRps(), ablation.rateSource(), ablation.policy(), Text.plain(ablation.seconds()))).blank();
        md.header(new String[] {"part", "replaced", "mean (ms)", "p50 (ms)", "p90 (ms)", "p99 (ms)", "p99.9 (ms)",
            "max (ms)", "sent", "failed"}, false, false, true, true, true, true, true, true, true, true);
        for (AblationResult.Part p : ablation.parts()) {
            md.row(p.name(), p.replaced() == null ? "-" : p.replaced(), Text.number(p.meanMs(), 4),
                    Text.number(p.p50Ms(), 4), Text.number(p.p90Ms(), 4), Text.number(p.p99Ms(), 4),
                    Text.number(p.p999Ms(), 3), Text.number(p.maxMs(), 3), Long.toString(p.sent()),
                    Long.toString(p.failed()));
        }
        md.blank();
        if (ablation.harness() != null) {
            String line = AblationTable.harness(ablation.harness());
            md.line("**The harness alone**: " + line.substring(line.indexOf("costs")) + ".").blank();
        }
        if (!ablation.costs().isEmpty()) {
            md.header(new String[] {"removed", "by difference: mean (ms)", "95% interval", "p50 (ms)", "p99 (ms)",
                "by its stages (ms)", "stages", "agree", "reading"}, false, true, true, true, true, true, false, false, false);
            for (AblationResult.Cost c : ablation.costs()) {
                md.row(c.removed(), Text.number(c.meanMs(), 4), c.meanLowMs() == null ? "-"
                                : Text.f("[%.4f, %.4f]%s", c.meanLowMs(), c.meanHighMs(), c.resolved() ? "" : " not resolved"),
                        Text.number(c.p50Ms(), 4),
                        Text.number(c.p99Ms(), 4), Text.number(c.stageMeanMs(), 4), String.join(" + ", c.stages()),
                        c.agree() ? "yes" : "no", c.reading());
            }
            md.blank();
        }
        ablation.skipped().forEach(s -> md.line("- Skipped " + s + "."));
        if (!ablation.skipped().isEmpty()) {
            md.blank();
        }
    }
}
