package io.inferbench.sweep;

import io.inferbench.engine.SessionFacts;
import io.inferbench.measure.PhaseSink;
import io.inferbench.runner.KindSession;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The unit of a {@code passes} A/B fork: A's pass and B's, each order once in every block of two, drawn, each timed into
 * its own phase. The two sessions here are fakes whose passes spin known lengths (B three times A's) and log when they run.
 */
class AlternatingKindTest {
    private static final long A_NS = 200_000;
    private static final long B_NS = 600_000;

    /** A session whose unit spins {@code ns} and logs its name; closing it is logged too. */
    private static KindSession spinning(String name, long ns, List<String> log) {
        return new KindSession() {
            @Override
            public SessionFacts facts() {
                return null;
            }

            @Override
            public Unit prepare(int seqLen, int batch, long seed, PhaseSink phases) {
                log.add("prepare " + name);
                return () -> {
                    log.add(name);
                    long end = System.nanoTime() + ns;
                    while (System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                    return name.equals("A") ? 1 : 10;
                };
            }

            @Override
            public void close() {
                log.add("close " + name);
            }
        };
    }

    private record Ran(List<String> order, Map<String, List<Long>> phases, long checksum) {
    }

    private static Ran run(long seed, int passes) {
        return run(seed, passes, 1);
    }

    private static Ran run(long seed, int passes, int round) {
        List<String> log = new ArrayList<>();
        Map<String, List<Long>> phases = new TreeMap<>();
        KindSession session = AlternatingKind.alternate(spinning("A", A_NS, log), spinning("B", B_NS, log), round);
        KindSession.Unit unit = session.prepare(16, 2, seed, (phase, ns) -> phases.computeIfAbsent(phase, p -> new ArrayList<>()).add(ns));
        assertEquals(List.of("A", "B", "A first", "B first"), unit.phases(), "declared before the first pass");
        assertEquals(List.of("A", "B"), unit.summaryPhases(), "the progress line shows each side's");
        long checksum = 0;
        for (int i = 0; i < passes; i++) {
            checksum += unit.forward();
        }
        session.close();
        assertEquals(List.of("close A", "close B"), log.subList(log.size() - 2, log.size()), "closing closes both sessions");
        return new Ran(log.subList(2, log.size() - 2), phases, checksum);
    }

    @Test
    void eachPassRunsBothSidesEachFirstInOneOfEveryTwoAndTimesEachInItsOwnPhase() {
        int passes = 201;
        Ran ran = run(42, passes);
        assertEquals(11L * passes, ran.checksum(), "both sides' outputs are consumed");
        assertEquals(2 * passes, ran.order().size());
        List<Boolean> firsts = bFirst(ran.order());
        int bFirst = 0;
        for (int i = 0; i < passes; i++) {
            List<String> pass = ran.order().subList(2 * i, 2 * i + 2);
            assertTrue(pass.equals(List.of("A", "B")) || pass.equals(List.of("B", "A")), "one of each per pass: " + pass);
            bFirst += pass.get(0).equals("B") ? 1 : 0;
            if (i % 2 == 1) {
                assertTrue(!firsts.get(i).equals(firsts.get(i - 1)), "each order once in a block of two passes, at " + i);
            }
            assertTrue(Math.abs(2 * bFirst - (i + 1)) <= 1, "B first in half of any prefix, to within one: " + bFirst
                    + " of " + (i + 1));
        }
        List<Boolean> blockStarts = blockStarts(ran.order());
        long bStarts = blockStarts.stream().filter(b -> b).count();
        assertTrue(bStarts > blockStarts.size() / 4 && bStarts < 3 * blockStarts.size() / 4,
                "which order opens a block is drawn: B in " + bStarts + " of " + blockStarts.size());
        assertEquals(passes, ran.phases().get("A").size());
        assertEquals(passes, ran.phases().get("B").size());
        assertEquals(bFirst, ran.phases().get("B first").size(), "B's passes run first, again on their own");
        assertEquals(passes - bFirst, ran.phases().get("A first").size());
        double a = median(ran.phases().get("A"));
        double b = median(ran.phases().get("B"));
        assertTrue(a >= A_NS && a < B_NS, "A's phase is A's pass alone: " + a);
        assertTrue(b >= B_NS && b < 2 * B_NS, "B's phase is B's pass alone: " + b);
    }

    @Test
    void theOrderIsSeededSoARunCanBeRepeated() {
        assertEquals(run(7, 50).order(), run(7, 50).order());
        assertTrue(!run(7, 50).order().equals(run(8, 50).order()), "another seed draws another order");
        assertEquals(run(7, 50, 3).order(), run(7, 50, 3).order());
    }

    /**
     * Each fork (each pair) draws its own order: with one order for all, whatever recurs at the same pass of every fork
     * (a collection after the same allocations) would fall on the same side in every pair.
     */
    @Test
    void eachForkDrawsItsOwnOrder() {
        List<String> first = run(7, 50, 1).order();
        for (int round = 2; round <= 5; round++) {
            assertTrue(!first.equals(run(7, 50, round).order()), "round " + round + " draws the order of round 1");
        }
    }

    /**
     * Not the same order shifted: seeds a multiple of SplittableRandom's own step apart draw one sequence, one draw
     * further per round, so every fork held the same share of B first and it did not average out. One draw opens each
     * block of two passes; over 400 blocks, round r's block k agrees with round 1's block k + r - 1 about half the time
     * when the draws are independent.
     */
    @Test
    void noForkDrawsAnothersOrderShifted() {
        int blocks = 400;
        List<Boolean> first = blockStarts(run(7, 2 * (blocks + 8), 1).order());
        for (int round = 2; round <= 5; round++) {
            List<Boolean> later = blockStarts(run(7, 2 * blocks, round).order());
            int same = 0;
            for (int k = 0; k < blocks; k++) {
                same += later.get(k).equals(first.get(k + round - 1)) ? 1 : 0;
            }
            assertTrue(same < 0.65 * blocks, "round " + round + " agrees with round 1 shifted by " + (round - 1) + " in "
                    + same + " of " + blocks + " blocks");
        }
    }

    /** Whether B ran first in the first unit of each block of two. */
    private static List<Boolean> blockStarts(List<String> order) {
        List<Boolean> firsts = bFirst(order);
        List<Boolean> out = new ArrayList<>();
        for (int i = 0; i < firsts.size(); i += 2) {
            out.add(firsts.get(i));
        }
        return out;
    }

    private static List<Boolean> bFirst(List<String> order) {
        List<Boolean> out = new ArrayList<>();
        for (int i = 0; i < order.size(); i += 2) {
            out.add(order.get(i).equals("B"));
        }
        return out;
    }

    private static double median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    /**
     * A fork is one pair, so its rules ask for enough units of each side: the run's stop rule with at least
     * {@link AlternatingKind#MIN_UNITS} units over at least {@link AlternatingKind#MIN_MEASURE_MS}, and a cap of at least
     * {@link AlternatingKind#MIN_MEASURE_CAP_MS}; what asks for more keeps it, and a fixed count stays a fixed count.
     */
    @Test
    void aForkMeasuresEnoughUnitsOfEachSide() {
        AlternatingKind kind = new AlternatingKind(new ForwardKind(), "tiny", null);
        io.inferbench.measure.WarmupPolicy warmup = io.inferbench.measure.WarmupPolicy.untilSteady(0.05, 5000);
        io.inferbench.measure.MeasurePolicy asked = new io.inferbench.measure.MeasurePolicy(warmup,
                new io.inferbench.measure.StopPolicy(null, 0.02, 0.95, 6, 200, 1500));
        io.inferbench.measure.StopPolicy stop = kind.policy(asked).stop();
        assertEquals(40, stop.minPasses(), "40 units, not the 6 the p50 of the pair's time needs");
        assertEquals(8000, stop.capMs(), "time for them at a service's 125 ms a unit, not 1.5 s");
        assertEquals(0.02, stop.precision());
        assertEquals(2000, stop.minMs(), "2 s of units, not the sweep's 1 s: a fork's fixed costs are paid per pair");
        assertEquals(warmup, kind.policy(asked).warmup(), "the warm-up is the run's");

        io.inferbench.measure.StopPolicy more = kind.policy(new io.inferbench.measure.MeasurePolicy(warmup,
                new io.inferbench.measure.StopPolicy(null, 0.02, 0.95, 100, 5000, 20_000))).stop();
        assertEquals(100, more.minPasses(), "p99 asks for 100 per fork");
        assertEquals(5000, more.minMs());
        assertEquals(20_000, more.capMs());

        io.inferbench.measure.StopPolicy fixed = kind.policy(new io.inferbench.measure.MeasurePolicy(warmup,
                new io.inferbench.measure.StopPolicy(25, 0.02, 0.95, 6, 200, 1500))).stop();
        assertEquals(25, fixed.fixedPasses(), "-Dbench.iterations is a count, whatever the kind");
    }
}
