package io.inferbench.runner;

import io.inferbench.Text;
import io.inferbench.measure.MeasureEnd;
import org.apache.commons.math3.stat.descriptive.rank.Median;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Watches one fork JVM's cells as they end, against the same cells' forks in earlier JVMs, and says when the JVM has
 * gone slow: {@value #SLOW_IN_WINDOW} of its last {@value #WINDOW} cells with earlier forks measured more than the
 * departure factor ({@link ForkDeparture}) above the median of those forks' p50s. The sweep then stops the JVM and runs
 * its remaining cells in a fresh one ({@link SlowJvmRest}), instead of measuring them in a JVM whose numbers would depart and be measured
 * again after the rounds anyway ({@link ForkRunner}).
 *
 * <p>Why: a fork JVM can run every pass of its life slower than the other rounds' JVMs ran the same cells, and measured to
 * its end and then again it costs the sweep its whole time twice (measured: docs/findings.md, "A slow fork JVM"). Only
 * slower counts: a JVM that looks fast against its one predecessor may be the normal one after a slow one,
 * which the check after the rounds sorts out with all the forks in hand. Only cells measured to their precision count
 * (a fixed count has no interval that says the difference is more than noise). Round 1 has nothing to compare with.
 */
final class SlowJvm {
    static final int WINDOW = 4;
    static final int SLOW_IN_WINDOW = 3;

    private final double factor;
    private final Deque<Boolean> window = new ArrayDeque<>();

    SlowJvm(double factor) {
        this.factor = factor;
    }

    /**
     * A cell ended in this JVM.
     *
     * @param earlierP50sMs the cell's p50 in earlier fork JVMs; empty in round 1
     * @return why the JVM should stop, or null to go on
     */
    String cellDone(String cellId, double p50Ms, MeasureEnd stop, List<Double> earlierP50sMs) {
        if (earlierP50sMs.isEmpty() || stop != MeasureEnd.PRECISE) {
            return null;
        }
        double earlier = new Median().evaluate(earlierP50sMs.stream().mapToDouble(Double::doubleValue).toArray());
        window.addLast(p50Ms > factor * earlier);
        if (window.size() > WINDOW) {
            window.removeFirst();
        }
        long slow = window.stream().filter(Boolean::booleanValue).count();
        if (slow < SLOW_IN_WINDOW) {
            return null;
        }
        return Text.f("%d of its last %d cells ran more than x%s slower than in earlier JVMs (the last, %s: p50 %.3f ms "
                + "against %.3f ms)", slow, window.size(), Text.plain(factor), cellId, p50Ms,
                earlier);
    }
}
