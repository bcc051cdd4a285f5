package io.inferbench.serve;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The machine's speed of the moment against the sweep's: right before an SLA search, every batch size the policy forms
 * (at every bucket of the workload) runs through the worker's path for {@value #SECONDS} s in all, as the serving
 * warm-up does, and each shape's median service is divided by the forecast's median pass at that shape. The median of
 * those ratios scales the forecast for that search ({@link QueueSimulator#scaled}).
 *
 * <p>Then under load: the policy's own loop runs for {@value #LOADED_SECONDS} s at the rate the search will start from
 * (0.7x the boundary forecast with the check above), recorded in no point, and the median of its batches' served
 * service over the sweep's pass at their size ({@link ServedPasses}) scales the forecast instead: served passes run
 * slower than the same passes alone seconds before (the generator's sends, the hand-offs, the JVM beside them), and
 * near saturation a few percent on the pass moves the boundary many. The same check's late sends are the generator's
 * stalls that the forecast replays ({@link GeneratorStalls}); it runs two seconds, since the long stalls are few
 * (measured: docs/findings.md, "Passes under load").
 *
 * <p>Why, and what it cannot see (what changes within a point): docs/findings.md, "Passes under load".
 */
final class SpeedCheck {
    static final double SECONDS = 1.0;
    /** The loaded check's length, and how long its requests may take to drain after its last send. */
    static final double LOADED_SECONDS = 2.0;
    static final double LOADED_DRAIN_SECONDS = 5.0;

    private SpeedCheck() {
    }

    /**
     * The median over the re-timed shapes of their median service over the forecast's median pass at the same rows and
     * bucket; null when a shape failed or none was timed.
     */
    static Double ratio(ServingWarmup.Result timed, QueueSimulator forecast) {
        if (!timed.failures().isEmpty()) {
            return null;
        }
        List<Double> ratios = new ArrayList<>();
        for (Map.Entry<Integer, Map<Integer, Histogram>> bucket : timed.serviceNs().entrySet()) {
            for (Map.Entry<Integer, Histogram> shape : bucket.getValue().entrySet()) {
                if (shape.getValue().getTotalCount() == 0) {
                    continue;
                }
                long forecastNs = forecast.timesAt(bucket.getKey()).quantile(shape.getKey() * forecast.rowsPerRequest(), 0.5);
                ratios.add(shape.getValue().getValueAtPercentile(50) / (double) Math.max(1, forecastNs));
            }
        }
        return ServedPasses.median(ratios.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
