package io.inferbench.sweep;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.engine.Device;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.OutputSpec;
import io.inferbench.engine.Pairing;
import io.inferbench.engine.Pairings;
import io.inferbench.engine.SessionFacts;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.TokenBatch;
import io.inferbench.measure.PhaseSink;
import io.inferbench.model.TokenInputs;
import io.inferbench.precision.OutputMatch;
import io.inferbench.precision.PrecisionCheck;
import io.inferbench.engine.OpTrace;
import io.inferbench.roofline.Placement;
import io.inferbench.results.RunStore;
import io.inferbench.runner.CellKind;
import io.inferbench.runner.KindSession;
import io.inferbench.runner.Preflight;
import io.inferbench.runner.SweepOptions;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The sweep's cell kind: one forward pass of a model at a sequence length and batch, its inputs prepared outside the
 * timed region and its outputs read inside it ({@link InferenceSession#forward}). Its preflight opens each engine, device
 * and model, checks every shape of the plan fits the model's axes, profiles a pass where the engine can (a compute node
 * on the CPU under CUDA, or a float16 model run in float32, stops the run), times passes at the smallest and largest
 * shape, and with a reference, checks the outputs of every model can be compared with its.
 */
public record ForwardKind(Map<Integer, List<String>> textsBySeq) implements CellKind {
    /** Without texts: every session of the run takes token ids. */
    public ForwardKind() {
        this(Map.of());
    }

    public ForwardKind {
        textsBySeq = Map.copyOf(textsBySeq);
    }

    @Override
    public String name() {
        return "forward";
    }

    /** Null: a forward pass is what every run before the kinds measured, and its config says nothing of a kind. */
    @Override
    public String recordedName() {
        return null;
    }

    @Override
    public String runName() {
        return "sweep";
    }

    @Override
    public String units() {
        return "passes";
    }

    @Override
    public Pairings.Purpose purpose() {
        return Pairings.Purpose.FORWARD;
    }

    @Override
    public PairingCheck check(InferenceEngine engine, Pairing pairing, SessionSpec spec, SweepOptions options, PrintStream log) {
        int[] smallest = Preflight.smallest(options);
        int[] largest = Preflight.largest(options);
        SeriesKey.EngineModel target = new SeriesKey.EngineModel(pairing.engine(), pairing.device(), pairing.model());
        String where = pairing.engine() + " on " + pairing.device() + " with model " + pairing.model();
        try (InferenceSession session = engine.open(spec)) {
            for (int seq : options.plan().seqLens()) {
                for (int batch : options.plan().batches()) {
                    session.inputs().requireFits(batch, seq);
                }
            }
            checkKernels(engine, spec, pairing, options, smallest[1], smallest[0]);
            List<Preflight.TrialPass> probes = new ArrayList<>();
            probes.add(probe(session, target, smallest[1], smallest[0], options.rules().seed(), where));
            if (largest[0] != smallest[0] || largest[1] != smallest[1]) {
                probes.add(probe(session, target, largest[1], largest[0], options.rules().seed(), where));
            }
            return new PairingCheck(probes, session.inputs(), session.outputs());
        }
    }

    /** Every pair with the reference, on each engine and device, must have outputs that can be compared value by value. */
    @Override
    public void checkTogether(SweepOptions options, Map<Pairing, PairingCheck> checks) {
        String reference = options.plan().reference();
        if (reference == null) {
            return;
        }
        checks.forEach((pairing, check) -> {
            if (pairing.model().equals(reference)) {
                return;
            }
            checks.entrySet().stream().filter(e -> e.getKey().model().equals(reference) && e.getKey().engine().equals(pairing.engine())
                    && e.getKey().device().equals(pairing.device())).findFirst().ifPresent(ref -> {
                        String refusal = OutputMatch.refusal(ref.getValue().outputs(), check.outputs());
                        if (refusal != null) {
                            throw new BenchmarkException("Cannot compare " + pairing.model() + " with the reference " + reference
                                    + " on " + pairing.engine() + "/" + pairing.device() + ": " + refusal + ". Compare models "
                                    + "with the same outputs, or drop -Dbench.reference");
                        }
                    });
        });
    }

    @Override
    public KindSession open(InferenceEngine engine, SessionSpec spec) {
        InferenceSession session = engine.open(spec);
        return new KindSession() {
            /** Read when asked, at each cell's end: a target's libraries are those its calls loaded by then. */
            @Override
            public SessionFacts facts() {
                return session.facts(engine.engineVersion());
            }

            /**
             * The token batch of the shape, seeded, every row full length, with the texts of the cell's bucket for a
             * session that reads text itself (a target); the pass is the session's forward, the parts it marks itself
             * recorded into {@code phases}.
             */
            @Override
            public Unit prepare(int seqLen, int batch, long seed, PhaseSink phases) {
                session.recordPhasesInto(phases);
                TokenBatch tokens = TokenBatch.full(batch, seqLen, TokenInputs.tokenIds(batch, seqLen, seed));
                List<String> texts = textsBySeq.getOrDefault(seqLen, List.of());
                session.prepare(session.takesText() && !texts.isEmpty() ? tokens.withTexts(CellTexts.rows(texts, batch)) : tokens);
                Double markCostNs = session.phaseMarkCostNs();
                return new Unit() {
                    @Override
                    public long forward() {
                        return session.forward();
                    }

                    @Override
                    public Double phaseMarkCostNs() {
                        return markCostNs;
                    }
                };
            }

            @Override
            public void close() {
                session.close();
            }
        };
    }

    private static Preflight.TrialPass probe(InferenceSession session, SeriesKey.EngineModel target, int batch, int seq, long seed,
                                         String where) {
        try {
            session.prepare(batch, seq, TokenInputs.tokenIds(batch, seq, seed));
            session.forward();
            double[] passMs = new double[Preflight.PROBE_PASSES];
            for (int i = 0; i < Preflight.PROBE_PASSES; i++) {
                long start = System.nanoTime();
                session.forward();
                passMs[i] = (System.nanoTime() - start) / 1e6;
            }
            Arrays.sort(passMs);
            return new Preflight.TrialPass(target, (long) batch * Math.max(1, seq), passMs[Preflight.PROBE_PASSES / 2]);
        } catch (BenchmarkException e) {
            throw e;
        } catch (RuntimeException | OutOfMemoryError e) {
            throw new BenchmarkException("A forward pass of " + where + " at batch " + batch + " x seq " + seq + " failed (" + e
                    + "): the sweep's largest shape must fit in memory. Lower -Dbench.batch or -Dbench.seq, or raise "
                    + "-Dbench.jvmArgs", e);
        }
    }

    /**
     * One profiled pass at the smallest shape, on engines with a profiler: on CUDA a compute node on the CPU, or more
     * than 1% of the pass there, stops the sweep now, naming the nodes ({@link Placement}; unless
     * {@code bench.allowCpuFallback}); on any device a float16 model whose ops ran in float32 behind inserted casts stops
     * it too ({@link PrecisionCheck}).
     */
    private static void checkKernels(InferenceEngine engine, SessionSpec spec, Pairing pairing, SweepOptions options, int batch,
                                     int seq) {
        Path traces;
        try {
            traces = Files.createTempDirectory("inferbench-preflight");
        } catch (IOException e) {
            throw new BenchmarkException("Could not make a folder for the preflight profile: " + e, e);
        }
        try {
            engine.profilePass(spec.withoutCpuFallback(), TokenBatch.full(batch, seq, TokenInputs.tokenIds(batch, seq,
                    options.rules().seed())), 1, 1, traces).ifPresent(trace -> {
                        OpTrace parsed = OpTrace.afterWarmup(engine.readProfile(trace), 1);
                        if (Device.parse(pairing.device()).isCuda() && !options.engines().allowCpuFallback()) {
                            String refusal = Placement.of(parsed).refusal();
                            if (refusal != null) {
                                throw new BenchmarkException(refusal);
                            }
                        }
                        String precision = PrecisionCheck.refusal(parsed, pairing.model(), pairing.device(), engine.name() + " "
                                + engine.engineVersion());
                        if (precision != null) {
                            throw new BenchmarkException(precision);
                        }
                    });
        } finally {
            RunStore.deleteQuietly(traces);
        }
    }


    /** The session's output specs, for a test. */
    static List<OutputSpec> outputs(InferenceSession session) {
        return session.outputs();
    }
}
