package abstudy;

import io.inferbench.api.Call;
import io.inferbench.api.InferenceTarget;
import io.inferbench.api.Shape;
import io.inferbench.api.TargetContext;

/**
 * The A/B study's target: a call that does a fixed amount of arithmetic per row of its batch over a 256 KiB table (so
 * its time moves with the machine's state, as a model's does, unlike a spin on the clock), and SLOWDOWN_PERCENT more
 * of it in a slower build. The study compiles this file once per build with SLOWDOWN_PERCENT replaced (0, 3, 10), as a
 * pull request's build differs from its base branch's.
 */
public class CalibratedWork implements InferenceTarget {
    /** Replaced by the study's script for each build. */
    static final double SLOWDOWN_PERCENT = 0;
    /** About 1 ms a row on the 2-core build machine. */
    static final long STEPS_PER_ROW = 350_000;

    private final int[] table = new int[1 << 16];
    private long steps;

    @Override
    public void open(TargetContext context) {
        for (int i = 0; i < table.length; i++) {
            table[i] = i * 0x9E3779B9;
        }
        steps = Math.round(STEPS_PER_ROW * (1 + SLOWDOWN_PERCENT / 100));
    }

    @Override
    public Call prepare(Shape shape) {
        long total = steps * shape.batch();
        return () -> {
            int h = 0x811C9DC5;
            int mask = table.length - 1;
            for (long i = 0; i < total; i++) {
                h = (h ^ table[h & mask]) * 0x01000193;
            }
            return h;
        };
    }
}
