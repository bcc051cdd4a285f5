package io.inferbench.pipeline;

import io.inferbench.results.AbSection;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.runner.Cell;
import io.inferbench.runner.DuetCpus;
import io.inferbench.runner.ForkRunner;
import io.inferbench.sweep.AlternatingKind;

import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Where an A/B run's pairs come from ({@link AbStage} drives any of them the same way): each round measures A and B of
 * the cells still open, and the cells of each side are read after it.
 * <ul>
 *   <li>{@link Forks}: a fork JVM of A's and one of B's per round, one after the other in an order drawn per round;</li>
 *   <li>{@link Duet}: the two at once, each pinned to its own half of the cores, which half drawn per round
 *       ({@link DuetCpus});</li>
 *   <li>{@link Passes}: one fork JVM per round holding both subjects, their passes alternating
 *       ({@link AlternatingKind}); each side's cells are that fork's phases {@code A} and {@code B}
 *       ({@link PassesCells#side}).</li>
 * </ul>
 */
interface PairSource {
    /**
     * One round as it was measured: which side ran first where that was drawn (the forks mode), B's cores in a duet, and
     * how the console says it.
     */
    record Round(Boolean bFirst, String bCpus, String words) {
    }

    /** Both subjects' runs, ended. */
    record Finished(RunResult a, RunResult b) {
    }

    /** Measures round {@code pair} of {@code cellsA} and {@code cellsB} (the same open cells of each side's plan). */
    Round measure(int pair, List<Cell> cellsA, List<Cell> cellsB);

    /** A's cells as measured so far, every round's forks in each. */
    List<CellResult> cellsA();

    /** B's cells as measured so far. */
    List<CellResult> cellsB();

    /**
     * Whether A's and B's passes of a pair share the machine moment by moment (they alternate in one fork JVM), so
     * that whatever disturbed the fork (another process taking the CPU) fell on both alike and cancels in their ratio:
     * such a pair is not doubted. Apart, A's fork and B's saw different minutes, and a disturbed one is.
     */
    default boolean sidesShareTheMachine() {
        return false;
    }

    /**
     * The order of A's and B's calls in the fork of round {@code pair} of B's cell {@code cellB} (its shape: the fork's
     * cell held both), where one fork held both ({@link AbSection.CallOrder}); null where the sides ran apart.
     */
    default AbSection.CallOrder order(CellResult cellB, int pair) {
        return null;
    }

    /** How the pairs are measured, for ab.md: one sentence's opening, without its full stop. */
    String measuredHow();

    /** Who failed, as a cell's stop says it, when A's cell ({@code bFailed} false) or B's did not measure. */
    String failed(boolean bFailed);

    /** Writes each side's run as it stands after a round, B's into {@code storeB}. */
    void writeRound(RunStore storeB);

    /**
     * Ends both runs: hands A's final cells to {@code beforeB} (the A/B section that B's run.json carries), then ends B's.
     */
    Finished finish(Consumer<List<CellResult>> beforeB);

    /** A's and B's fork JVMs apart: what {@link Forks} and {@link Duet} share. */
    abstract class Apart implements PairSource {
        final ForkRunner.Measuring a;
        final ForkRunner.Measuring b;
        final Random order;

        Apart(ForkRunner.Measuring a, ForkRunner.Measuring b, Random order) {
            this.a = a;
            this.b = b;
            this.order = order;
        }

        @Override
        public List<CellResult> cellsA() {
            return a.results();
        }

        @Override
        public List<CellResult> cellsB() {
            return b.results();
        }

        @Override
        public String failed(boolean bFailed) {
            return (bFailed ? "B" : "A") + " failed";
        }

        @Override
        public void writeRound(RunStore storeB) {
            storeB.writeRun(b.current()); // A's runner writes A's run as its forks end
        }

        @Override
        public Finished finish(Consumer<List<CellResult>> beforeB) {
            RunResult finishedA = a.finish();
            beforeB.accept(finishedA.cells());
            return new Finished(finishedA, b.finish());
        }
    }

    /** One side's fork JVM after the other, the order drawn per round. */
    final class Forks extends Apart {
        Forks(ForkRunner.Measuring a, ForkRunner.Measuring b, Random order) {
            super(a, b, order);
        }

        @Override
        public String measuredHow() {
            return "Measured in pairs of fork JVMs, A's and B's back to back in an order drawn per pair";
        }

        @Override
        public Round measure(int pair, List<Cell> cellsA, List<Cell> cellsB) {
            boolean bFirst = order.nextBoolean();
            ForkRunner.Measuring first = bFirst ? b : a;
            ForkRunner.Measuring second = bFirst ? a : b;
            first.enqueueRound(pair, bFirst ? cellsB : cellsA);
            first.drain();
            second.enqueueRound(pair, bFirst ? cellsA : cellsB);
            second.drain();
            return new Round(bFirst, null, bFirst ? "B A" : "A B");
        }
    }

    /** Both sides' fork JVMs at once, each on its half of the cores, which half drawn per round. */
    final class Duet extends Apart {
        private final DuetCpus cpus;

        Duet(ForkRunner.Measuring a, ForkRunner.Measuring b, Random order, DuetCpus cpus) {
            super(a, b, order);
            this.cpus = cpus;
        }

        @Override
        public String measuredHow() {
            return "Measured in pairs of fork JVMs, A's and B's at the same time (a duet), each pinned to its own half of "
                    + "the cores, which half drawn per pair";
        }

        @Override
        public Round measure(int pair, List<Cell> cellsA, List<Cell> cellsB) {
            cpus.assign(order.nextBoolean());
            String bCpus = cpus.b();
            a.enqueueRound(pair, cellsA);
            b.enqueueRound(pair, cellsB);
            together(a::drain, b::drain);
            return new Round(null, bCpus, "duet, B on cores " + bCpus);
        }

        /**
         * Runs A's and B's queued forks at the same time, each on a thread of its own that waits on its fork JVM, and
         * returns when both have ended; a failure of either is thrown after both ended.
         */
        private static void together(Runnable a, Runnable b) {
            AtomicReference<Throwable> failedA = new AtomicReference<>();
            Thread threadA = new Thread(() -> {
                try {
                    a.run();
                } catch (Throwable t) {
                    failedA.set(t);
                }
            }, "inferbench-duet-A");
            threadA.start();
            RuntimeException failedB = null;
            try {
                b.run();
            } catch (RuntimeException e) {
                failedB = e;
            }
            try {
                threadA.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while A's fork of a duet ran", e);
            }
            if (failedB != null) {
                throw failedB;
            }
            if (failedA.get() instanceof RuntimeException e) {
                throw e;
            }
            if (failedA.get() != null) {
                throw new IllegalStateException("A's fork of a duet failed: " + failedA.get(), failedA.get());
            }
        }
    }

    /** One fork JVM per round holding both subjects, their passes alternating; its runner is B's. */
    final class Passes implements PairSource {
        private final ForkRunner.Measuring both;
        private final RunResult startedA;
        private final RunStore storeA;
        private final RunConfig.ModelInfo modelA;
        private final RunConfig.ModelInfo modelB;

        /**
         * @param both     the runner whose fork JVMs hold both subjects
         * @param startedA A's run as the preflight started it, written to {@code storeA} with A's side of each round
         */
        Passes(ForkRunner.Measuring both, RunResult startedA, RunStore storeA, RunConfig.ModelInfo modelA,
               RunConfig.ModelInfo modelB) {
            this.both = both;
            this.startedA = startedA;
            this.storeA = storeA;
            this.modelA = modelA;
            this.modelB = modelB;
        }

        @Override
        public boolean sidesShareTheMachine() {
            return true;
        }

        @Override
        public String measuredHow() {
            return "Measured in fork JVMs that each held A's session and B's, one pair per fork, their passes alternating "
                    + "in an order drawn per block of two passes, each order once a block";
        }

        @Override
        public Round measure(int pair, List<Cell> cellsA, List<Cell> cellsB) {
            both.enqueueRound(pair, cellsB);
            both.drain();
            return new Round(null, null, "one fork, passes alternating");
        }

        @Override
        public List<CellResult> cellsA() {
            return PassesCells.sides(both.results(), AlternatingKind.A, modelA);
        }

        @Override
        public AbSection.CallOrder order(CellResult cellB, int pair) {
            return both.results().stream().filter(c -> c.backend().equals(cellB.backend())
                            && c.device().equals(cellB.device()) && c.seqLen() == cellB.seqLen() && c.batch() == cellB.batch())
                    .reduce((x, y) -> y).map(c -> PassesCells.order(c, pair)).orElse(null);
        }

        @Override
        public List<CellResult> cellsB() {
            return PassesCells.sides(both.results(), AlternatingKind.B, modelB);
        }

        @Override
        public String failed(boolean bFailed) {
            return "failed in the fork holding A and B";
        }

        @Override
        public void writeRound(RunStore storeB) {
            RunResult currentB = both.current();
            storeB.writeRun(currentB);
            storeA.writeRun(startedA.withCells(cellsA(), null).withForkJvms(currentB.forkJvms()));
        }

        @Override
        public Finished finish(Consumer<List<CellResult>> beforeB) {
            List<CellResult> cellsOfA = cellsA();
            beforeB.accept(cellsOfA);
            RunResult finishedB = both.finish();
            RunResult finishedA = startedA.withCells(cellsOfA, Instant.now().toString()).withForkJvms(finishedB.forkJvms());
            storeA.writeRun(finishedA);
            return new Finished(finishedA, finishedB);
        }
    }
}
