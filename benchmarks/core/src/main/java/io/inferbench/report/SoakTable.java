package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.SoakResult;

import java.util.ArrayList;
import java.util.List;

/** The console's lines for a soak: one per window, then the two trends with their verdicts and the notes. */
public final class SoakTable {
    private SoakTable() {
    }

    public static List<String> lines(SoakResult soak) {
        List<String> lines = new ArrayList<>();
        if (!soak.windows().isEmpty()) {
            lines.add(Text.f("[inferbench]   %8s %9s %9s %9s %8s %7s %10s %9s %9s %9s", "from s", "p50 ms", "p99 ms", "max ms",
                    "rps", "errors", "error rate", "RSS MiB", "heap MiB", "direct"));
            for (SoakResult.Window w : soak.windows()) {
                lines.add(Text.f("[inferbench]   %8s %9s %9s %9s %8.1f %7d %10s %9s %9s %9s", Text.plain(w.startSeconds()),
                        Text.number(w.p50Ms(), 3), Text.number(w.p99Ms(), 3), Text.number(w.maxMs(), 3), w.rps(), w.errors(),
                        ServingTable.errorRate(w.errorRate()), Text.number(w.rssMb(), 1), Text.number(w.heapMb(), 1),
                        Text.number(w.directMb(), 1))
                        + (w.gpuMemoryMb() == null ? "" : Text.f(" GPU %.0f MiB", w.gpuMemoryMb())));
            }
        }
        lines.add(Text.f("[inferbench] soak latency: %s (%s)", soak.latencyTrend().verdict().toUpperCase(java.util.Locale.ROOT),
                soak.latencyTrend().reason()) + firstLast(soak.latencyTrend().firstMs(), soak.latencyTrend().lastMs(), "ms", 3));
        lines.add(Text.f("[inferbench] soak memory: %s (%s)", soak.memoryTrend().verdict().toUpperCase(java.util.Locale.ROOT),
                soak.memoryTrend().reason()) + firstLast(soak.memoryTrend().firstMb(), soak.memoryTrend().lastMb(), "MiB", 1));
        if (soak.sent() > 0) {
            lines.add(Text.f("[inferbench] soak: %d sent, %d failed (error rate %s)", soak.sent(), soak.failed(),
                    ServingTable.errorRate(soak.errorRate())));
        }
        soak.notes().forEach(n -> lines.add("[inferbench] soak note: " + n));
        return lines;
    }

    private static String firstLast(Double first, Double last, String unit, int digits) {
        return first == null ? "" : Text.f("; first window %s %s, last %s %s", Text.number(first, digits), unit,
                Text.number(last, digits), unit);
    }
}
