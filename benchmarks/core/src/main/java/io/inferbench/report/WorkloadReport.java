package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.measure.LatencySummary;
import io.inferbench.results.WorkloadResult;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** report.md's workload section: the requests, their buckets and padding, shaping schemes, batching, better buckets, a measured stream. */
public final class WorkloadReport {
    private WorkloadReport() {
    }

    public static void section(Markdown md, WorkloadResult w, List<Charts.ChartFile> charts, Path reportDir) {
        if (w == null) {
            return;
        }
        md.line("## Real inputs").blank();
        md.line("- Requests: " + w.requests() + " from " + w.source() + " (SHA-256 `" + w.sourceSha256() + "`)"
                + (w.skippedLines() > 0 ? "; " + w.skippedLines() + " empty line(s) skipped" : "") + ".");
        if (w.tokenizer() != null) {
            md.line("- Tokenizer: " + w.tokenizer() + " (SHA-256 `" + w.tokenizerSha256() + "`); " + w.tokenizeNote() + ".");
        }
        md.line("- Lengths in tokens" + (w.maxLength() == null ? "" : ", after truncation to the model's maximum") + ": "
                + w.lengthPercentilesTokens().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", ")) + ". Model maximum: " + (w.maxLength() == null ? "none given" : w.maxLength()
                + " (" + w.truncatedToMax() + " request(s) truncated to it)") + "; " + w.beyondLargestBucket()
                + " request(s) longer than the largest bucket, truncated to it.");
        md.line("- Buckets: " + w.buckets() + (w.bucketsFile() == null ? "" : " (" + w.bucketsFile() + ")") + ".").blank();
        for (Charts.ChartFile chart : charts) {
            md.line("![" + chart.title() + "](" + reportDir.relativize(chart.png()).toString().replace('\\', '/') + ")").blank();
        }
        for (WorkloadResult.EngineWorkload e : w.engines()) {
            md.line("### " + e.backend() + " | " + e.device() + " | " + Text.shortModelName(e.model())).blank();
            md.line("Latency at shapes the sweep did not measure: " + e.latencyModel() + ".").blank();
            md.header(new String[] {"bucket (tokens)", "requests", "share", "mean true length", "padding fraction", "p50 at batch 1 (ms)",
                "p99 at batch 1 (ms)", "shape measured"}, true, true, true, true, true, true, true, false);
            for (WorkloadResult.BucketStats b : e.buckets()) {
                md.row(Integer.toString(b.upperTokens()), Long.toString(b.requests()), Text.f("%.1f%%", 100 * b.share()),
                        Text.f("%.1f", b.meanTrueLength()), Text.f("%.1f%%", 100 * b.paddingFraction()), Text.f("%.3f", b.p50Ms()),
                        Text.f("%.3f", b.p99Ms()), b.measured() ? "yes" : "no (scaled)");
            }
            md.blank();
            md.line("One request at a time (padding fraction = padded token slots / all token slots; wasted compute = the share "
                    + "of the latency spent on padding, by the batch-1 power law):").blank();
            md.header(new String[] {"scheme", "mean latency (ms)", "p99 (ms)", "requests/s", "padding fraction", "wasted compute"},
                    false, true, true, true, true, true);
            for (WorkloadResult.SchemeStats s : e.schemes()) {
                md.row(s.scheme(), Text.f("%.3f", s.meanLatencyMs()), Text.f("%.3f", s.p99Ms()), Text.f("%.1f", s.requestsPerSecond()),
                        Text.f("%.1f%%", 100 * s.paddingFraction()), Text.f("%.1f%%", 100 * s.wastedComputeShare()));
            }
            md.blank();
            if (!e.lengthAwareBatching().isEmpty()) {
                md.line("Batches padded to their longest member: in arrival order, and sorted by length within a window:").blank();
                md.header(new String[] {"batch", "window", "arrival order: padding", "arrival order: requests/s", "sorted: padding",
                    "sorted: requests/s"}, true, true, true, true, true, true);
                for (WorkloadResult.BatchingStats b : e.lengthAwareBatching()) {
                    md.row(Integer.toString(b.batch()), Integer.toString(b.window()), Text.f("%.1f%%", 100 * b.arrivalOrderPaddingFraction()),
                            Text.f("%.1f", b.arrivalOrderRequestsPerSecond()), Text.f("%.1f%%", 100 * b.sortedPaddingFraction()),
                            Text.f("%.1f", b.sortedRequestsPerSecond()));
                }
                md.blank();
            }
            if (e.advisor() != null) {
                WorkloadResult.Advisor a = e.advisor();
                md.line(Text.f("Bucket advisor (%s). The bucket file %s: %.3f ms expected per request.", a.costModel(),
                        a.currentBuckets(), a.currentExpectedMs())).blank();
                md.header(new String[] {"buckets", "best boundaries (tokens)", "expected per request (ms)", "gain over the bucket file"},
                        true, false, true, true);
                for (WorkloadResult.Advisor.Option o : a.options()) {
                    md.row(Integer.toString(o.buckets()), o.boundaries().toString()
                                    + (o.extrapolatedBoundaries() == null || o.extrapolatedBoundaries().isEmpty() ? ""
                                    : " (" + o.extrapolatedBoundaries() + " outside the measured lengths: extrapolated)"),
                            Text.f("%.3f", o.expectedMs()), Text.f("%+.1f%%", o.gainPercentOverCurrent()));
                }
                md.blank();
                md.line("The gains are priced by the cost model; to measure advised buckets, sweep them, e.g. `-Dbench.seq="
                        + a.options().get(1).boundaries().stream().map(String::valueOf).collect(Collectors.joining(",")) + "`.").blank();
            }
            if (e.mixedStream() != null) {
                WorkloadResult.MixedStream m = e.mixedStream();
                md.line(Text.f("Mixed stream, measured: %d requests drawn from the workload, each at its bucket's shape (batch 1), "
                        + "after %d warm-up requests. Pass p50 %.3f ms, p99 %.3f ms; end to end p50 %.3f ms, p99 %.3f ms.",
                        m.requests(), m.warmupRequests(), m.passMs().p50Ms(), m.passMs().p99Ms(), m.endToEndMs().p50Ms(),
                        m.endToEndMs().p99Ms())).blank();
                md.header(new String[] {"stage", "p50 (ms)", "p90 (ms)", "p99 (ms)", "max (ms)"}, false, true, true, true, true);
                for (Map.Entry<String, LatencySummary> s : m.stagesMs().entrySet()) {
                    md.row(s.getKey(), Text.f("%.3f", s.getValue().p50Ms()), Text.f("%.3f", s.getValue().p90Ms()),
                            Text.f("%.3f", s.getValue().p99Ms()), Text.f("%.3f", s.getValue().maxMs()));
                }
                for (Map.Entry<Integer, LatencySummary> b : m.perBucketMs().entrySet()) {
                    md.row("forward, bucket " + b.getKey() + " (" + b.getValue().count() + " requests)",
                            Text.f("%.3f", b.getValue().p50Ms()), Text.f("%.3f", b.getValue().p90Ms()),
                            Text.f("%.3f", b.getValue().p99Ms()), Text.f("%.3f", b.getValue().maxMs()));
                }
                md.blank();
            }
        }
    }
}
