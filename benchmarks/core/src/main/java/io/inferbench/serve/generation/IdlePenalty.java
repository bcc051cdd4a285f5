package io.inferbench.serve.generation;

import io.inferbench.Text;
import io.inferbench.engine.RowBatch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * How much slower a pass is after the decoder has been idle: its caches cooled, its threads asleep, its core given to
 * something else. The generation cells time passes back to back; a request under light load finds the decoder idle,
 * so its prefill is the idle one. Measured before the points, unrecorded in any: {@value #REPEATS} batch-1 prefills
 * after each idle gap, each gap's p50 over the back-to-back p50. The forecast multiplies each pass by the factor at the
 * idle time before it, so that the idle cost is in the forecast, named, rather than in an unexplained gap between it and
 * the measurement.
 *
 * @param gapsMs the idle gaps measured, the first 0 (back to back)
 * @param ratios each gap's p50 prefill over the back-to-back p50 (1 at gap 0)
 * @param backToBackMs the back-to-back p50
 */
record IdlePenalty(double[] gapsMs, double[] ratios, double backToBackMs) {
    static final int REPEATS = 11;
    static final double[] GAPS_MS = {0, 1, 5, 25, 125};

    /** Measures the penalty on {@code rows} with {@code prompt}, leaving the batch empty. */
    static IdlePenalty measure(RowBatch rows, long[] prompt) {
        double[] p50 = new double[GAPS_MS.length];
        for (int g = 0; g < GAPS_MS.length; g++) {
            double[] ms = new double[REPEATS];
            for (int i = 0; i < REPEATS; i++) {
                if (GAPS_MS[g] > 0) {
                    LockSupport.parkNanos((long) (GAPS_MS[g] * 1e6));
                }
                long start = System.nanoTime();
                rows.prefill(List.of(prompt));
                ms[i] = (System.nanoTime() - start) / 1e6;
                rows.clear();
            }
            Arrays.sort(ms);
            p50[g] = ms[REPEATS / 2];
        }
        double[] ratios = new double[p50.length];
        for (int g = 0; g < p50.length; g++) {
            ratios[g] = p50[g] / p50[0];
        }
        return new IdlePenalty(GAPS_MS.clone(), ratios, p50[0]);
    }

    /**
     * The factor after {@code idleNs} idle: linear in the gap up to the first measured gap, then linear in its logarithm
     * between measured gaps, the last one's beyond them; never under 0.5.
     */
    double factor(long idleNs) {
        double gap = idleNs / 1e6;
        if (gapsMs.length == 1 || gap <= 0) {
            return 1;
        }
        double f;
        if (gap <= gapsMs[1]) {
            f = 1 + (ratios[1] - 1) * gap / gapsMs[1];
        } else if (gap >= gapsMs[gapsMs.length - 1]) {
            f = ratios[ratios.length - 1];
        } else {
            int i = 1;
            while (gap > gapsMs[i + 1]) {
                i++;
            }
            double t = Math.log(gap / gapsMs[i]) / Math.log(gapsMs[i + 1] / gapsMs[i]);
            f = ratios[i] + (ratios[i + 1] - ratios[i]) * t;
        }
        return Math.max(0.5, f);
    }

    /** {@code a batch-1 prefill after 1, 5, 25, 125 ms idle: 1.02x, 1.10x, 1.40x, 2.05x one back to back (1.21 ms)}. */
    String describe() {
        if (gapsMs.length == 1) {
            return "not measured";
        }
        List<String> gaps = new ArrayList<>();
        List<String> factors = new ArrayList<>();
        for (int g = 1; g < gapsMs.length; g++) {
            gaps.add(Text.plain(gapsMs[g]));
            factors.add(Text.f("%.2fx", ratios[g]));
        }
        return "a batch-1 prefill after " + String.join(", ", gaps) + " ms idle: " + String.join(", ", factors)
                + Text.f(" one back to back (%.3f ms)", backToBackMs);
    }
}
