package io.inferbench.generate;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.Engines;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.Pairing;
import io.inferbench.engine.Pairings;
import io.inferbench.engine.SessionFacts;
import io.inferbench.engine.SessionSpec;
import io.inferbench.inputs.KvPair;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.measure.NanoClock;
import io.inferbench.measure.PhaseSink;
import io.inferbench.model.ModelSource;
import io.inferbench.runner.CellKind;
import io.inferbench.runner.KindSession;
import io.inferbench.runner.Preflight;
import io.inferbench.runner.SweepOptions;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generation ({@code -Dbench.generate=N}) as a cell kind of the one runner: each prompt length x batch is a cell whose
 * unit is one whole {@link Generation}, its phases recorded apart ({@link GenerationUnit}). A cell warms up until the
 * generations' time is steady and measures until its median is precise, with at least {@link #MIN_GENERATIONS}
 * generations and a cap of at least {@link #MIN_MEASURE_CAP_MS} ({@link #policy}); everything else (fork JVMs driven by
 * JMH, the job queue and its rules, the set-aside of a disturbed measurement, run.json after each fork JVM) is the
 * runner's.
 *
 * @param newTokens tokens per sequence: one prefill and {@code newTokens - 1} decode steps
 * @param kvPairs   {@code -Dbench.kvPairs}: cache inputs paired with their outputs by hand
 * @param sampling  {@code -Dbench.sampling}: how each token is picked
 */
public record GenerationKind(int newTokens, List<KvPair> kvPairs, Sampling sampling, LoadRows loadRows) implements CellKind {
    /** What generation under load needs of the decoder's rows, checked when the preflight opens it. */
    public enum LoadRows {
        /** No load. */
        NONE,
        /** Static batches of prompts of one length: rows that share a batch, never padded. */
        EQUAL,
        /** Rows of different lengths in one batch (continuous batching, or prompts of several lengths): an attention mask. */
        PADDED
    }

    public GenerationKind(int newTokens, List<KvPair> kvPairs, Sampling sampling) {
        this(newTokens, kvPairs, sampling, LoadRows.NONE);
    }

    /** The fewest measured generations per cell and fork, whatever the stop rule says: a step's p99 needs steps from several. */
    public static final int MIN_GENERATIONS = 10;
    /** The longest measurement of a cell in a fork, at least: a generation is tens of passes. */
    public static final long MIN_MEASURE_CAP_MS = 10_000;
    /** A prompt's ids are drawn from [0, this): valid in any real vocabulary. */
    public static final int PROMPT_ID_BOUND = 1000;

    public GenerationKind(int newTokens, List<KvPair> kvPairs) {
        this(newTokens, kvPairs, Sampling.GREEDY);
    }

    public GenerationKind {
        kvPairs = List.copyOf(kvPairs);
        sampling = sampling == null ? Sampling.GREEDY : sampling;
        loadRows = loadRows == null ? LoadRows.NONE : loadRows;
        if (newTokens < 1) {
            throw new IllegalArgumentException("a generation makes at least one token");
        }
    }

    @Override
    public String name() {
        return "generation";
    }

    @Override
    public String units() {
        return "generations";
    }

    @Override
    public String describe() {
        return "each cell's unit a " + (sampling.greedy() ? "greedy" : "sampled (" + sampling.describe() + ", seeded)")
                + " generation of " + newTokens + " new tokens (1 prefill + " + (newTokens - 1)
                + " decode steps), at least " + MIN_GENERATIONS + " measured per cell and fork";
    }

    @Override
    public Pairings.Purpose purpose() {
        return Pairings.Purpose.GENERATION;
    }

    /** The run's rules, with at least {@link #MIN_GENERATIONS} measured generations and a cap of {@link #MIN_MEASURE_CAP_MS}. */
    @Override
    public MeasurePolicy policy(MeasurePolicy asked) {
        return new MeasurePolicy(asked.warmup(), asked.stop().atLeast(MIN_GENERATIONS, 0, MIN_MEASURE_CAP_MS));
    }

    /**
     * Only a decoder generates; a built-in's positions (or an export folder's, as its {@code config.json} gives them) must
     * hold the longest prompt and every new token.
     */
    @Override
    public void checkModel(ModelSource source, SweepOptions options) {
        if (source instanceof ModelSource.Builtin) {
            throw new BenchmarkException(source.name() + " is an encoder: generation (-Dbench.generate) needs a decoder with a "
                    + "key/value cache: tiny-decoder, base-decoder, tiny-seq2seq, or an ONNX export with past/present inputs and "
                    + "outputs");
        }
        int longestPrompt = Preflight.largest(options)[0];
        if (source instanceof ModelSource.BuiltinDecoder decoder
                && longestPrompt + newTokens > decoder.preset().config().maxPositions()) {
            throw new BenchmarkException(source.name() + " has " + decoder.preset().config().maxPositions() + " positions; the "
                    + "longest prompt (" + longestPrompt + ") plus " + newTokens + " new tokens does not fit: "
                    + "lower -Dbench.seq or -Dbench.generate");
        }
        if (source instanceof ModelSource.BuiltinSeq2Seq
                && Math.max(longestPrompt, newTokens) > ModelSource.BuiltinSeq2Seq.CONFIG.maxPositions()) {
            throw new BenchmarkException(source.name() + " has " + ModelSource.BuiltinSeq2Seq.CONFIG.maxPositions()
                    + " positions on each side; the longest source (" + longestPrompt + ") or the " + newTokens + " new tokens "
                    + "does not fit: lower -Dbench.seq or -Dbench.generate");
        }
        // An encoder-decoder's prompt is its encoder's source, which the decoder's positions never hold: they hold the
        // decoder's own prompt (its start token) and the new tokens, the start token at position 0 and new token k fed
        // back at position k. (Whisper's max_target_positions is the decoder's alone; its source is the audio's frames.)
        boolean encoderDecoder = source instanceof ModelSource.OnnxFolder f && f.export().encoder() != null;
        int needed = encoderDecoder ? newTokens : longestPrompt + newTokens;
        if (source instanceof ModelSource.OnnxFolder folder && folder.export().config() != null
                && folder.export().config().maxPositions() != null && needed > folder.export().config().maxPositions()) {
            throw new BenchmarkException(source.name() + ": its " + folder.export().config().file().getFileName() + " gives "
                    + folder.export().config().maxPositions() + " positions; " + (encoderDecoder
                    ? "the decoder's start token and " + newTokens + " new tokens do not fit: lower -Dbench.generate"
                    : "the longest prompt (" + longestPrompt + ") plus " + newTokens + " new tokens does not fit: lower "
                    + "-Dbench.seq or -Dbench.generate"));
        }
    }

    /**
     * Opens the decoder as the cells will and times whole generations at the smallest and the largest prompt and batch
     * (one cold, then {@link Preflight#PROBE_PASSES}): a cache that cannot be paired, or a shape that does not fit,
     * fails here.
     */
    @Override
    public PairingCheck check(InferenceEngine engine, Pairing pairing, SessionSpec spec, SweepOptions options, PrintStream log) {
        SeriesKey.EngineModel target = new SeriesKey.EngineModel(pairing.engine(), pairing.device(), pairing.model());
        List<Preflight.TrialPass> probes = new ArrayList<>();
        try (DecoderSession decoder = engine.openDecoder(spec, kvPairs)) {
            for (int[] shape : List.of(Preflight.smallest(options), Preflight.largest(options))) {
                if (!probes.isEmpty() && Arrays.equals(shape, Preflight.smallest(options))) {
                    continue;
                }
                long[] prompt = prompt(options.rules().seed(), shape[0], shape[1]);
                Sampling.Picker picker = sampling.picker(options.rules().seed());
                Generation.run(decoder, prompt, shape[1], shape[0], newTokens, NanoClock.SYSTEM, picker);
                double[] ms = new double[Preflight.PROBE_PASSES];
                for (int i = 0; i < ms.length; i++) {
                    picker.reset();
                    ms[i] = Generation.run(decoder, prompt, shape[1], shape[0], newTokens, NanoClock.SYSTEM, picker).totalNs() / 1e6;
                }
                Arrays.sort(ms);
                probes.add(new Preflight.TrialPass(target, (long) shape[1] * Math.max(1, shape[0]), ms[ms.length / 2]));
            }
            log.println("[inferbench] generate: " + pairing.model() + " on " + pairing.engine() + " " + pairing.device() + ": "
                    + decoder.layout().describe());
            checkLoadRows(decoder, pairing);
        }
        return new PairingCheck(probes, null, List.of());
    }

    /** {@code , or serve it with -Dbench.backend=NAME} naming the engines that serve this model under load; empty if none. */
    private static String servedElsewhere(Pairing pairing) {
        List<String> others = Engines.names().stream().filter(name -> !name.equals(pairing.engine()))
                .filter(name -> Engines.capabilities(name).servesUnderLoad(name, pairing.source())).toList();
        return others.isEmpty() ? "" : ", or serve it with -Dbench.backend=" + String.join(" or ", others);
    }

    /** Refuses, before anything is measured, a load the decoder's rows cannot take. */
    private void checkLoadRows(DecoderSession decoder, Pairing pairing) {
        if (loadRows == LoadRows.NONE) {
            return;
        }
        try (io.inferbench.engine.RowBatch rows = decoder.rows()) {
            if (rows == null) {
                throw new BenchmarkException(pairing.model() + " on " + pairing.engine() + " cannot be served under load: "
                        + decoder.rowsRefusal() + ". Drop -Dbench.rate and -Dbench.batching to measure its generation cells"
                        + servedElsewhere(pairing));
            }
            if (loadRows == LoadRows.PADDED && !rows.pads()) {
                throw new BenchmarkException(pairing.model() + " has no attention_mask input, so a row cannot be padded to "
                        + "another's length: continuous batching (rows joining a running batch at other positions) and "
                        + "prompts of several lengths in one batch need it. Export the model with its attention_mask "
                        + "(optimum does), or serve it with -Dbench.batching=static and one prompt length (-Dbench.seq)");
            }
        }
    }

    @Override
    public KindSession open(InferenceEngine engine, SessionSpec spec) {
        DecoderSession decoder = engine.openDecoder(spec, kvPairs);
        SessionFacts facts = decoder.facts(engine.engineVersion());
        return new KindSession() {
            @Override
            public SessionFacts facts() {
                return facts;
            }

            @Override
            public Unit prepare(int seqLen, int batch, long seed, PhaseSink phases) {
                return new GenerationUnit(decoder, prompt(seed, seqLen, batch), batch, seqLen, newTokens, phases,
                        sampling.picker(seed));
            }

            @Override
            public void close() {
                decoder.close();
            }
        };
    }

    /** The prompt of a cell: row i's ids depend on the seed, the prompt length and i only, so batch 8 extends batch 4. */
    static long[] prompt(long seed, int promptLength, int batch) {
        long[] ids = new long[batch * promptLength];
        for (int row = 0; row < batch; row++) {
            SplittableRandom random = new SplittableRandom(seed * 1_000_003L + promptLength * 131L + row);
            for (int i = 0; i < promptLength; i++) {
                ids[row * promptLength + i] = random.nextInt(PROMPT_ID_BOUND);
            }
        }
        return ids;
    }
}
