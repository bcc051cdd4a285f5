package io.inferbench.sweep;

import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.Pairing;
import io.inferbench.engine.Pairings;
import io.inferbench.engine.SessionFacts;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.UserCode;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.measure.PhaseSink;
import io.inferbench.model.ModelSource;
import io.inferbench.runner.CellKind;
import io.inferbench.runner.KindSession;
import io.inferbench.runner.SweepOptions;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * An A/B run's pairs in {@code passes} mode ({@code -Dbench.ab.mode=passes}): one fork JVM holds B's session (the run's
 * model) and A's ({@code baselineModel}), each the sweep's forward pass ({@link ForwardKind}), and its timed unit is one
 * pass of each, in an order drawn per block of two passes (each order once a block). Each part is timed on its own and
 * recorded as the unit's phase {@link #A} or {@link #B}; the unit's own time is what the warm-up and stop rules see. A
 * fork is one pair: what the machine did during it fell on both.
 *
 * <p><b>Hazards</b> (docs/statistics-and-compare.md, "Forks, duet or passes", has what each did to an A/A run): two
 * thread pools would fight for the cores, so both sessions share one ({@link #sharesThreadPool}); what the first pass
 * of a unit leaves behind falls on the second, which the order cancels in the ratio but not in each side's latency; and
 * what one JVM holds for both (statics of the jars they share, threads either starts, a JIT that saw both) is the price
 * of two builds of a target in one JVM, each in a class-loader layer of its own ({@code baselineCode}).
 *
 * @param forward       the sweep's kind, each side's pass
 * @param baselineModel A's model as the user named it
 * @param baselineFile  A's model file as the run resolved it (a built-in's generated file, or the user's); null for none
 * @param baselineCode  A's build of the user's target ({@link UserCode#pair}); null when A and B are two models
 */
public record AlternatingKind(ForwardKind forward, String baselineModel, String baselineFile, UserCode baselineCode)
        implements CellKind {

    public AlternatingKind(ForwardKind forward, String baselineModel, String baselineFile) {
        this(forward, baselineModel, baselineFile, null);
    }

    /** The phase of the unit holding A's pass. */
    public static final String A = "A";
    /** The phase of the unit holding B's pass. */
    public static final String B = "B";
    /** A's passes run first in their unit, also in {@link #A}: the order's record ({@code AbSection.CallOrder}). */
    public static final String A_FIRST = "A first";
    /** B's passes run first in their unit, also in {@link #B}. */
    public static final String B_FIRST = "B first";

    @Override
    public String name() {
        return forward.name();
    }

    @Override
    public String recordedName() {
        return forward.recordedName();
    }

    @Override
    public String runName() {
        return forward.runName();
    }

    @Override
    public String units() {
        return "pairs of passes (A's and B's, alternating)";
    }

    @Override
    public String describe() {
        return baselineCode == null
                ? "A's model " + baselineModel + " in every fork JVM beside B's, their passes alternating, on one thread pool"
                : "A's build in every fork JVM beside B's, each in a class-loader layer of its own over the "
                + baselineCode.shared().size() + " jar(s) both have, their calls alternating";
    }

    /**
     * The fewest units (one call of each side) a fork measures per cell: each side's p50 in a fork is from at least this
     * many calls. The stop rule judges the pair's time, whose p50 is precise long before each side's is (at 12 units of
     * a real service at batch 4), and a pair's change is the ratio of the two sides' p50s.
     */
    public static final int MIN_UNITS = 40;

    /**
     * The shortest measurement of a cell in a fork, at least: a fork's JVM, JMH and sessions cost the same however long
     * it measures, and the sweep's 1 s a cell left a fast subject's run mostly outside its calls
     * (docs/statistics-and-compare.md).
     */
    public static final long MIN_MEASURE_MS = 2_000;

    /** The longest measurement of a cell in a fork, at least: time for {@link #MIN_UNITS} units of a service's calls. */
    public static final long MIN_MEASURE_CAP_MS = 8_000;

    /**
     * The run's rules, with at least {@link #MIN_UNITS} units over at least {@link #MIN_MEASURE_MS}, and a cap of
     * {@link #MIN_MEASURE_CAP_MS}: a fork is one pair, and its JVM's start and two sessions cost the same however long it
     * measures, so a pair is cheapest made precise inside its fork (docs/statistics-and-compare.md, "A fork made precise
     * in itself").
     */
    @Override
    public MeasurePolicy policy(MeasurePolicy asked) {
        MeasurePolicy each = forward.policy(asked);
        return new MeasurePolicy(each.warmup(), each.stop().atLeast(MIN_UNITS, MIN_MEASURE_MS, MIN_MEASURE_CAP_MS));
    }

    /** Both sessions on one thread pool: two pools would fight for the cores (above). */
    @Override
    public boolean sharesThreadPool() {
        return true;
    }

    /**
     * A disturbed measurement is kept, not measured again: A's and B's calls were microseconds apart all through it, so
     * what disturbed it fell on both and cancels in B / A. Beside a busy loop, measuring again took a third of an A/A
     * run's wall time (docs/statistics-and-compare.md).
     */
    @Override
    public boolean remeasuresDisturbed() {
        return false;
    }

    @Override
    public Pairings.Purpose purpose() {
        return forward.purpose();
    }

    @Override
    public PairingCheck check(InferenceEngine engine, Pairing pairing, SessionSpec spec, SweepOptions options, PrintStream log) {
        return forward.check(engine, pairing, spec, options, log);
    }

    @Override
    public KindSession open(InferenceEngine engine, SessionSpec spec) {
        return open(engine, spec, 0);
    }

    /**
     * Opens B's session, then A's on the same engine and device with the same settings; the order of their passes is
     * drawn anew in each fork ({@code round}). One order for every fork would put whatever recurs at the same pass of
     * each fork (a garbage collection, where the allocations are the same every time) on the same side in every pair:
     * an A/A run of a real service read p99 +33% [+11, +62] that way.
     */
    @Override
    public KindSession open(InferenceEngine engine, SessionSpec spec, int round) {
        KindSession b = forward.open(engine, spec);
        try {
            SessionSpec specA = new SessionSpec(ModelSource.parse(baselineModel), baselineFile == null ? null
                    : Path.of(baselineFile), spec.seed(), spec.device(), spec.intraOpThreads(), spec.interOpThreads(),
                    spec.allowCpuFallback(), spec.inputs(), baselineCode == null ? spec.userCode() : baselineCode);
            return alternate(forward.open(engine, specA), b, round);
        } catch (RuntimeException | Error e) {
            b.close();
            throw e;
        }
    }

    /**
     * A session whose unit at each shape is A's unit and B's, one after the other in an order drawn per block of two
     * units (seeded by the run's seed, the shape and the round), each timed on its own into the phases {@link #A} and
     * {@link #B}, and the one run first also into {@link #A_FIRST} or {@link #B_FIRST}. Its facts are B's.
     */
    static KindSession alternate(KindSession a, KindSession b, int round) {
        return new KindSession() {
            @Override
            public SessionFacts facts() {
                return b.facts();
            }

            @Override
            public Unit prepare(int seqLen, int batch, long seed, PhaseSink phases) {
                Unit unitA = a.prepare(seqLen, batch, seed, PhaseSink.NONE);
                Unit unitB = b.prepare(seqLen, batch, seed, PhaseSink.NONE);
                // Hashed, not a sum: seeds a multiple of SplittableRandom's own step apart (0x9E3779B97F4A7C15, its
                // golden gamma, the multiplier of the round here before) draw one sequence, shifted by one per round,
                // so each fork drew the same order and B's share of the first places did not average out over forks.
                SplittableRandom order = new SplittableRandom(Objects.hash(seed, seqLen, batch, round));
                return new Unit() {
                    /** Whether B ran first in the block's first unit. */
                    private boolean blockBFirst;
                    /** The next unit is the second of its block of two. */
                    private boolean secondOfBlock;

                    @Override
                    public long forward() {
                        // Drawn per block of two units, each order once in a block: each side goes first in half the
                        // units, to within one, however many a fork measures; drawn per unit, B had 46-52% of a cell's
                        // first places in the study's 30 runs (docs/statistics-and-compare.md).
                        if (!secondOfBlock) {
                            blockBFirst = order.nextBoolean();
                        }
                        boolean bFirst = secondOfBlock != blockBFirst;
                        secondOfBlock = !secondOfBlock;
                        Unit first = bFirst ? unitB : unitA;
                        Unit second = bFirst ? unitA : unitB;
                        long t0 = System.nanoTime();
                        long sum = first.forward();
                        long t1 = System.nanoTime();
                        sum += second.forward();
                        long t2 = System.nanoTime();
                        phases.record(bFirst ? B : A, t1 - t0);
                        phases.record(bFirst ? A : B, t2 - t1);
                        phases.record(bFirst ? B_FIRST : A_FIRST, t1 - t0);
                        return sum;
                    }

                    @Override
                    public void beforeTimed() {
                        unitA.beforeTimed();
                        unitB.beforeTimed();
                    }

                    @Override
                    public void afterTimed() {
                        unitA.afterTimed();
                        unitB.afterTimed();
                    }

                    @Override
                    public List<String> phases() {
                        return List.of(A, B, A_FIRST, B_FIRST);
                    }

                    @Override
                    public List<String> summaryPhases() {
                        return List.of(A, B);
                    }
                };
            }

            @Override
            public void close() {
                try {
                    a.close();
                } finally {
                    b.close();
                }
            }
        };
    }
}
