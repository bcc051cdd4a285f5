package io.inferbench.serve;

import io.inferbench.Text;
import io.inferbench.analysis.TheilSenTrend;
import io.inferbench.results.SoakResult;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The soak's verdicts, from its windows alone (so they can be read again from a {@code run.json} of another machine):
 * Theil–Sen's slope with Sen's interval and Mann–Kendall's test ({@link TheilSenTrend}) of the windows' p50 and of the
 * resident set at each window's end.
 *
 * <p>A trend is called only when both hold: the test rejects "no monotonic trend" at 5%, and the slope is at least a
 * floor that matters in practice ({@link #LATENCY_FLOOR_PERCENT_PER_MINUTE}, {@link #MEMORY_FLOOR_MB_PER_MINUTE}). The
 * test alone would call a real but harmless creep (the heap's first expansions, a few pages of a malloc arena); the floor
 * alone would call noise. {@code stable} is therefore "no trend found at this length": the interval says how large a
 * trend could still hide in it, and a short soak's interval is wide.
 */
public final class SoakTrends {
    /** Latency that moves less than this, percent of the median window's p50 per minute, is stable: 50% over 10 minutes. */
    public static final double LATENCY_FLOOR_PERCENT_PER_MINUTE = 5;
    /**
     * Resident memory that grows less than this, MiB per minute, is stable: 60 MiB an hour. One leaked 1 KiB tensor per
     * request at 20 requests/s is above it.
     */
    public static final double MEMORY_FLOOR_MB_PER_MINUTE = 1;

    public static final String STABLE = "stable";
    public static final String DRIFTING = "drifting";
    public static final String GROWING = "growing";
    public static final String SHRINKING = "shrinking";
    public static final String NOT_ESTIMATED = "not estimated";

    private SoakTrends() {
    }

    /** The windows' p50 over time, each at its window's middle. */
    public static SoakResult.LatencyTrend latency(List<SoakResult.Window> windows, double windowSeconds) {
        List<SoakResult.Window> measured = windows.stream().filter(w -> w.p50Ms() != null).toList();
        Double first = measured.isEmpty() ? null : measured.get(0).p50Ms();
        Double last = measured.isEmpty() ? null : measured.get(measured.size() - 1).p50Ms();
        if (measured.size() < TheilSenTrend.MIN_POINTS) {
            return new SoakResult.LatencyTrend("p50Ms", SoakResult.LatencyTrend.Slope.NONE,
                    LATENCY_FLOOR_PERCENT_PER_MINUTE,
                    NOT_ESTIMATED, first, last, measured.size() + " window(s) with a p50, fewer than the "
                    + TheilSenTrend.MIN_POINTS + " a trend needs: lengthen -Dbench.soakSeconds or shorten "
                    + "-Dbench.soakWindowSeconds");
        }
        double[] minutes = minutes(measured, windowSeconds / 2);
        double[] p50 = measured.stream().mapToDouble(SoakResult.Window::p50Ms).toArray();
        double median = median(p50);
        TheilSenTrend trend = TheilSenTrend.of(minutes, p50);
        double percent = 100 * trend.slope() / median;
        double low = 100 * trend.low() / median;
        double high = 100 * trend.high() / median;
        boolean called = trend.significant() && Math.abs(percent) >= LATENCY_FLOOR_PERCENT_PER_MINUTE;
        String verdict = called ? DRIFTING : STABLE;
        String reason = Text.f("p50 %+.2f%% per minute [%+.2f, %+.2f] (Theil-Sen, Sen's 95%% interval), Mann-Kendall p %.3f "
                        + "over %d windows; %s", percent, low, high, trend.pValue(), measured.size(),
                called ? Text.f("a trend of at least the %s%%/min floor", Text.plain(LATENCY_FLOOR_PERCENT_PER_MINUTE))
                        : trend.significant() ? Text.f("a trend, but under the %s%%/min floor",
                        Text.plain(LATENCY_FLOOR_PERCENT_PER_MINUTE))
                        : "no trend found at this length")
                + notRuledOut(called, low, high, LATENCY_FLOOR_PERCENT_PER_MINUTE, "%/min");
        return new SoakResult.LatencyTrend("p50Ms", new SoakResult.LatencyTrend.Slope(percent, low, high, trend.slope(),
                trend.pValue()),
                LATENCY_FLOOR_PERCENT_PER_MINUTE, verdict, first, last, reason);
    }

    /** The resident set at each window's end over time, with the heap after collections fitted beside it. */
    public static SoakResult.MemoryTrend memory(List<SoakResult.Window> windows, double windowSeconds) {
        List<SoakResult.Window> read = windows.stream().filter(w -> w.rssMb() != null).toList();
        Double first = read.isEmpty() ? null : read.get(0).rssMb();
        Double last = read.isEmpty() ? null : read.get(read.size() - 1).rssMb();
        if (read.size() < TheilSenTrend.MIN_POINTS) {
            return new SoakResult.MemoryTrend("rssMb", SoakResult.MemoryTrend.Slope.NONE, MEMORY_FLOOR_MB_PER_MINUTE,
                    NOT_ESTIMATED,
                    first, last, null, read.size() + " window(s) with a resident set read, fewer than the "
                    + TheilSenTrend.MIN_POINTS + " a trend needs" + (read.isEmpty() ? " (/proc/self/status is not readable "
                    + "here)" : ": lengthen -Dbench.soakSeconds or shorten -Dbench.soakWindowSeconds"));
        }
        double[] minutes = minutes(read, windowSeconds);
        TheilSenTrend rss = TheilSenTrend.of(minutes, values(read, SoakResult.Window::rssMb));
        List<SoakResult.Window> heapRead = read.stream().filter(w -> w.heapMb() != null).toList();
        Double heapSlope = heapRead.size() < TheilSenTrend.MIN_POINTS ? null
                : TheilSenTrend.of(minutes(heapRead, windowSeconds), values(heapRead, SoakResult.Window::heapMb)).slope();
        boolean called = rss.significant() && Math.abs(rss.slope()) >= MEMORY_FLOOR_MB_PER_MINUTE;
        String verdict = !called ? STABLE : rss.slope() > 0 ? GROWING : SHRINKING;
        String reason = Text.f("resident set %+.2f MiB per minute [%+.2f, %+.2f] (Theil-Sen, Sen's 95%% interval), "
                        + "Mann-Kendall p %.3f over %d windows%s; %s", rss.slope(), rss.low(), rss.high(), rss.pValue(),
                read.size(), heapSlope == null ? "" : Text.f("; heap after collections %+.2f MiB per minute", heapSlope),
                called ? Text.f("a trend of at least the %s MiB/min floor", Text.plain(MEMORY_FLOOR_MB_PER_MINUTE))
                        + (verdict.equals(GROWING) && heapSlope != null && heapSlope < MEMORY_FLOOR_MB_PER_MINUTE
                        ? ", while the heap stays flat: native memory (an engine's tensors, outside the GC's sight)" : "")
                        : rss.significant() ? Text.f("a trend, but under the %s MiB/min floor",
                        Text.plain(MEMORY_FLOOR_MB_PER_MINUTE)) : "no trend found at this length")
                + notRuledOut(called, rss.low(), rss.high(), MEMORY_FLOOR_MB_PER_MINUTE, " MiB/min");
        return new SoakResult.MemoryTrend("rssMb", new SoakResult.MemoryTrend.Slope(rss.slope(), rss.low(), rss.high(),
                rss.pValue()),
                MEMORY_FLOOR_MB_PER_MINUTE, verdict, first, last, heapSlope, reason);
    }

    /**
     * For a trend not called: the far end of its interval where it reaches past the floor, which this soak cannot rule
     * out (a short soak's interval is wide). Empty when the interval lies within the floor, or the trend was called.
     */
    static String notRuledOut(boolean called, double low, double high, double floor, String unit) {
        if (called || Math.max(Math.abs(low), Math.abs(high)) < floor) {
            return "";
        }
        double far = Math.abs(high) >= Math.abs(low) ? high : low;
        return Text.f("; a trend of %+.2f%s, past the floor, is not ruled out: a longer soak narrows the interval", far, unit);
    }

    private static double[] minutes(List<SoakResult.Window> windows, double offsetSeconds) {
        return windows.stream().mapToDouble(w -> (w.startSeconds() + offsetSeconds) / 60).toArray();
    }

    private static double[] values(List<SoakResult.Window> windows, Function<SoakResult.Window, Double> value) {
        return windows.stream().mapToDouble(w -> value.apply(w)).toArray();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    }
}
