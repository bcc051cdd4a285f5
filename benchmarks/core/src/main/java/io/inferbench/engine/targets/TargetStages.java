package io.inferbench.engine.targets;

import io.inferbench.api.Stage;
import io.inferbench.api.Stages;
import io.inferbench.measure.PassRecorder;
import io.inferbench.measure.PhaseSink;

/**
 * The {@link Stages} a target is given: each mark goes to the sink of the call running on the calling thread (set by the
 * runner around {@code Call.run}), so one target instance serves several workers at once, each recording its own calls.
 * A mark made outside a call goes nowhere.
 *
 * <p><b>Cost.</b> {@link #begin} reads the thread's sink and the clock and makes one small object; closing it reads the
 * clock and records into the sink. {@link #markCostNs} measures a pair on this JVM, and each cell records it.
 */
final class TargetStages implements Stages {
    private final ThreadLocal<PhaseSink> current = new ThreadLocal<>();

    @Override
    public Stage begin(String name) {
        PhaseSink sink = current.get();
        return sink == null ? () -> { } : new Mark(sink, name, System.nanoTime());
    }

    /** Runs {@code call} with its marks recorded into {@code sink}. */
    <T> T recording(PhaseSink sink, ThrowingSupplier<T> call) throws Exception {
        PhaseSink before = current.get();
        current.set(sink);
        try {
            return call.get();
        } finally {
            current.set(before);
        }
    }

    /** A call that may throw, as {@code Call.run} does. */
    @FunctionalInterface
    interface ThrowingSupplier<T> {
        T get() throws Exception;
    }

    /**
     * What one begin and close cost on this JVM, in nanoseconds, recording included: the median of {@value #MARK_ROUNDS}
     * rounds of {@value #MARKS_PER_ROUND} marks into a recorder's histograms, as a measured call's marks are, after as many
     * untimed ones (so the JIT has compiled the path a call's marks take).
     */
    double markCostNs() {
        PassRecorder recorder = new PassRecorder();
        recorder.beginPhase(PassRecorder.Phase.MEASUREMENT);
        PhaseSink none = recorder;
        double[] rounds = new double[MARK_ROUNDS];
        try {
            for (int round = -1; round < MARK_ROUNDS; round++) {
                long start = System.nanoTime();
                recording(none, () -> {
                    for (int i = 0; i < MARKS_PER_ROUND; i++) {
                        try (Stage s = begin("mark")) {
                            continue;
                        }
                    }
                    return null;
                });
                if (round >= 0) {
                    rounds[round] = (System.nanoTime() - start) / (double) MARKS_PER_ROUND;
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("the stage marks' own cost could not be measured", e);
        }
        java.util.Arrays.sort(rounds);
        return rounds[MARK_ROUNDS / 2];
    }

    static final int MARK_ROUNDS = 5;
    static final int MARKS_PER_ROUND = 20_000;

    private static final class Mark implements Stage {
        private final PhaseSink sink;
        private final String name;
        private final long startNs;
        private boolean closed;

        Mark(PhaseSink sink, String name, long startNs) {
            this.sink = sink;
            this.name = name;
            this.startNs = startNs;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                sink.record(name, System.nanoTime() - startNs);
            }
        }
    }
}
