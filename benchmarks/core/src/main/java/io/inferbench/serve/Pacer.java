package io.inferbench.serve;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits until a point in {@code System.nanoTime}: parks until shortly before it, then spins the rest. How long before is
 * learned from the park's own overshoot on this machine (Linux wakes a parked thread some tens of microseconds late,
 * its timer slack): the spin covers the typical overshoot and a margin, no more, so at 1,000 sends a second the
 * generator spins for a few percent of a core instead of the 10% a fixed 100 µs spin took from the engine's cores.
 *
 * <p>One per thread; not thread-safe. Interrupts are honoured: a wait ends with {@link InterruptedException}.
 */
final class Pacer {
    /** The spin never exceeds this: a park that overshoots more is late, and shows as generator lag. */
    static final long MAX_SPIN_NS = 100_000;
    static final long MARGIN_NS = 5_000;
    /** The smoothed overshoot of a park, in nanoseconds; starts at a typical Linux timer slack. */
    private double overshootNs = 50_000;

    void waitUntil(long targetNs) throws InterruptedException {
        long spin = spinNs();
        long left = targetNs - System.nanoTime();
        if (left > spin) {
            long wakeAt = targetNs - spin;
            LockSupport.parkNanos(wakeAt - System.nanoTime());
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting to send");
            }
            long now = System.nanoTime();
            if (now < targetNs) {
                overshootNs = 0.875 * overshootNs + 0.125 * Math.max(0, now - wakeAt);
            }
            // A park can return early (spuriously); park again rather than spin the difference.
            while (targetNs - System.nanoTime() > spin) {
                LockSupport.parkNanos(targetNs - spin - System.nanoTime());
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting to send");
                }
            }
        }
        while (System.nanoTime() < targetNs) {
            Thread.onSpinWait();
        }
    }

    /** How long before a target the pacer stops parking: 1.5x the smoothed overshoot and a margin, at most 100 µs. */
    long spinNs() {
        return Math.min(MAX_SPIN_NS, Math.round(1.5 * overshootNs) + MARGIN_NS);
    }
}
