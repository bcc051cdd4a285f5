package io.inferbench.generate;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.BatchScalingAnalyzer;
import io.inferbench.analysis.LatencyPoint;
import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.model.DecoderConfig;
import io.inferbench.model.DecoderReference;
import io.inferbench.model.DecoderWeights;
import io.inferbench.model.ModelSource;
import io.inferbench.model.Seq2SeqReference;
import io.inferbench.model.Seq2SeqWeights;
import io.inferbench.results.CellFork;
import io.inferbench.results.CellResult;
import io.inferbench.results.GenerationResult;
import io.inferbench.results.Json;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunResult;
import io.inferbench.roofline.ProfileRunner;
import io.inferbench.roofline.Roofline;
import io.inferbench.runner.SweepOptions;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * run.json's {@code generation}, made from the runner's cells ({@link GenerationKind}): each cell's phases over its kept
 * forks, with its fork records; each phase's fits against batch; and, once every cell has run ({@link #complete}), each
 * phase on the roofline, the greedy tokens against a reference, and the cache's memory. After each fork JVM the run
 * holds {@link #sofar}: the cells and fits measured until then, so that a run stopped half way keeps them.
 */
public final class GenerationSection {
    /** Built-in sequences whose reference costs more multiply-adds than this are compared engine against engine only. */
    static final double REFERENCE_MAX_MACS = 2e10;
    static final String KV_CACHE_CONVENTION = "the keys and values of every layer after the last step: prompt + newTokens - 1 "
            + "positions, 2 x layers x batch x heads x positions x headDim x bytes per element, summed over the model's cache "
            + "outputs";

    private final GenerationKind kind;
    private final SweepOptions options;
    private final Double memoryBudgetMb;
    private final PrintStream console;

    /** @param memoryBudgetMb {@code -Dbench.memoryBudgetMb}, or null */
    public GenerationSection(GenerationKind kind, SweepOptions options, Double memoryBudgetMb, PrintStream console) {
        this.kind = kind;
        this.options = options;
        this.memoryBudgetMb = memoryBudgetMb;
        this.console = console;
    }

    /** User decoders' work, by model, prompt length and batch: profiled once per run. */
    private final Map<String, java.util.Optional<DecoderProfile.Counted>> profiled = new HashMap<>();

    /** The section with the cells so far and their fits: no roofline and no token agreement yet (those need the engines). */
    public GenerationResult sofar(List<CellResult> results) {
        List<GenerationResult.Cell> cells = cells(results, null, Map.of());
        return new GenerationResult(kind.newTokens(), KV_CACHE_CONVENTION, handOff(), options.rules().forks(), cells,
                fits(cells, options.rules().regimeThresholds()), List.of(), memory(cells, results), failures(results),
                kind.sampling().describe());
    }

    /** The whole section, once every cell has run: each phase placed on the measured roofs, and the token agreement. */
    public GenerationResult complete(List<CellResult> results, RunResult run) {
        List<GenerationResult.Cell> cells = cells(results, run, new HashMap<>());
        return new GenerationResult(kind.newTokens(), KV_CACHE_CONVENTION, handOff(), options.rules().forks(), cells,
                fits(cells, options.rules().regimeThresholds()), agreement(results), memory(cells, results), failures(results),
                kind.sampling().describe());
    }

    /** What the cache hand-off spans on each engine of the run, as each engine says it ({@code Capabilities#cacheHandOff}). */
    private String handOff() {
        List<String> engines = options.plan().backends().stream().map(b -> b + ": "
                + io.inferbench.engine.Engines.capabilities(b).cacheHandOff()).toList();
        return String.join(". ", engines) + ". The hand-off time is the Java side only: new ids, positions and mask, the "
                + "cache passed from outputs to inputs, and the release of the step before's tensors";
    }

    private List<GenerationResult.Cell> cells(List<CellResult> results, RunResult run, Map<String, ProfileResult.Calibration> roofs) {
        return results.stream().filter(CellResult::measured)
                .sorted(Comparator.comparing(CellResult::backend).thenComparing(CellResult::device).thenComparing(CellResult::model)
                        .thenComparingInt(CellResult::seqLen).thenComparingInt(CellResult::batch))
                .map(c -> cell(c, run, roofs)).toList();
    }

    private GenerationResult.Cell cell(CellResult c, RunResult run, Map<String, ProfileResult.Calibration> roofs) {
        Map<String, String> phases = c.phases().histogramsNs();
        Histogram total = HistogramCodec.decode(c.histogramNs());
        double perSequence = kind.newTokens() / (total.getValueAtPercentile(50) / 1e9);
        LatencySummary prefill = summary(phases.get(GenerationUnit.PREFILL));
        LatencySummary step = summary(phases.get(GenerationUnit.STEP));
        List<Double> byPosition = new ArrayList<>();
        for (int k = 1; phases.containsKey(GenerationUnit.stepAt(k)); k++) {
            byPosition.add(HistogramCodec.decode(phases.get(GenerationUnit.stepAt(k))).getValueAtPercentile(50) / 1e6);
        }
        LatencySummary encode = summary(phases.get(GenerationUnit.ENCODE));
        GenerationResult.PhaseRoofline prefillRoof = null;
        GenerationResult.PhaseRoofline stepRoof = null;
        GenerationResult.PhaseRoofline encodeRoof = null;
        if (run != null) {
            ModelSource source = ModelSource.parse(c.model());
            ProfileResult.Calibration peaks = roofs.computeIfAbsent(c.backend() + " " + c.device(), k -> peaks(c, run));
            if (peaks != null && source instanceof ModelSource.BuiltinDecoder decoder) {
                DecoderConfig config = decoder.preset().config();
                prefillRoof = place(DecoderWork.prefill(config, c.batch(), c.seqLen()), prefill.p50Ms(), peaks, null);
                if (!byPosition.isEmpty()) {
                    long positions = c.seqLen() + kind.newTokens() - 1L;
                    stepRoof = place(DecoderWork.step(config, c.batch(), positions), byPosition.get(byPosition.size() - 1), peaks,
                            null);
                }
            } else if (peaks != null) {
                java.util.Optional<DecoderProfile.Counted> counted = counted(source, c.seqLen(), c.batch());
                if (counted.isPresent()) {
                    prefillRoof = place(counted.get().prefill(), prefill.p50Ms(), peaks, uncounted(counted.get()));
                    if (counted.get().encode() != null && encode != null) {
                        encodeRoof = place(counted.get().encode(), encode.p50Ms(), peaks, uncounted(counted.get()));
                    }
                    if (!byPosition.isEmpty()) {
                        stepRoof = place(counted.get().step(), byPosition.get(byPosition.size() - 1), peaks,
                                counted.get().note() + uncounted(counted.get()));
                    }
                }
            }
        }
        List<String> stops = c.forkRuns().stream().map(f -> io.inferbench.Text.f("round %d: warm-up %d generations (%s), "
                + "measured %d (%s)", f.round(), f.warmup().passes(), f.warmup().end().label(), f.measurement().passes(),
                f.measurement().end().label())).toList();
        return new GenerationResult.Cell(new GenerationResult.Cell.Target(c.backend(), c.device(), c.model(), c.seqLen(),
                c.batch(), kind.newTokens()), new GenerationResult.Cell.Counts(c.measuredPasses(), c.warmupPasses(), stops),
                new GenerationResult.Cell.Latency(summary(phases.get(GenerationUnit.TTFT)), prefill, step,
                        summary(phases.get(GenerationUnit.HAND_OFF)), byPosition),
                new GenerationResult.Cell.Throughput(perSequence, perSequence * c.batch(), outputs(c).get(0).cacheBytes()),
                new GenerationResult.Cell.Rooflines(prefillRoof, stepRoof), c.forkRuns(), c.departedForks(),
                summary(phases.get(GenerationUnit.PICK)), c.outputHandling(), new GenerationResult.Cell.Encoder(encode,
                encode == null ? null : outputs(c).get(0).crossCacheBytes(), encodeRoof));
    }

    private static LatencySummary summary(String histogramNs) {
        if (histogramNs == null) {
            return null;
        }
        Histogram h = HistogramCodec.decode(histogramNs);
        return h.getTotalCount() == 0 ? null : LatencySummary.of(h);
    }

    private static List<GenerationOutput> outputs(CellResult c) {
        return c.phases().outputs().stream().map(node -> {
            try {
                return Json.mapper().treeToValue(node, GenerationOutput.class);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("a generation fork's output could not be read: " + e.getMessage(), e);
            }
        }).toList();
    }

    private ProfileResult.Calibration peaks(CellResult c, RunResult run) {
        try {
            return ProfileRunner.roofs(c.backend(), c.device(), run, options.sessionDefaults());
        } catch (BenchmarkException e) {
            console.println("[inferbench] generate: no roofs for " + c.backend() + " on " + c.device() + " (" + e.getMessage()
                    + "); the phases are classed by their batch slope only");
            return null;
        }
    }

    /** A phase on the roofs; {@code countNote}, where given, is how its work was counted, after the placement's reason. */
    private static GenerationResult.PhaseRoofline place(DecoderWork work, double passMs, ProfileResult.Calibration peaks,
                                                        String countNote) {
        Roofline.Placed placed = Roofline.place(work.flops(), work.bytes(), passMs, peaks.callFloorMs(), peaks,
                ProfileResult.RooflineThresholds.DEFAULTS);
        return new GenerationResult.PhaseRoofline(work.flops(), work.bytes(), placed.intensity(), placed.flopsPercent(),
                placed.bytesPercent(), placed.rooflineClass(), placed.reason()
                + (countNote == null ? "" : "; work counted from an engine's op profile of one generation"
                + (countNote.isEmpty() ? "" : ": " + countNote.replaceFirst("^; ", ""))));
    }

    /**
     * A user decoder's work at a prompt length and batch, profiled once per run ({@link DecoderProfile}); empty, said on
     * the console, where no engine profiles it or the profile fails.
     */
    private java.util.Optional<DecoderProfile.Counted> counted(ModelSource source, int seq, int batch) {
        return profiled.computeIfAbsent(source.name() + "|" + seq + "|" + batch, k -> {
            try {
                return DecoderProfile.count(source, options.sessionDefaults(), kind.kvPairs(), seq, batch, kind.newTokens());
            } catch (BenchmarkException e) {
                console.println("[inferbench] generate: the work of " + source.name() + " at prompt " + seq + ", batch " + batch
                        + " was not counted (" + e.getMessage() + "); its phases are classed by their batch slope only");
                return java.util.Optional.empty();
            }
        });
    }

    private static String uncounted(DecoderProfile.Counted counted) {
        return counted.uncounted().isEmpty() ? "" : "; ops without a FLOP rule (FLOPs a floor): "
                + String.join(", ", counted.uncounted());
    }

    /** Each phase's p50 against batch, fitted and classed by the sweep's rule and thresholds: what {@code analyze} redoes. */
    public static List<GenerationResult.Fit> fits(List<GenerationResult.Cell> cells, RegimeThresholds thresholds) {
        List<GenerationResult.Fit> fits = new ArrayList<>();
        for (String phase : List.of("encode", "prefill", "decode")) {
            List<LatencyPoint> points = new ArrayList<>();
            for (GenerationResult.Cell c : cells) {
                LatencySummary s = phase.equals("encode") ? c.encodeMs() : phase.equals("prefill") ? c.prefillMs() : c.stepMs();
                if (s != null) {
                    points.add(new LatencyPoint(c.backend(), c.device(), c.model(), c.seqLen(), c.batch(), s.p50Ms(), s.p90Ms(),
                            s.p99Ms(), c.batch() * 1000.0 / s.p50Ms(), s.stdevMs() / s.meanMs()));
                }
            }
            Analysis analysis = BatchScalingAnalyzer.analyze(points, thresholds);
            for (SeriesFit f : analysis.fits()) {
                fits.add(new GenerationResult.Fit(f.series(), phase, f.batches(), f.p50Ms(), f.regime(),
                        f.borderline(), f.relativeMarginalCost(), f.relativeMarginalCostCiLow(),
                        f.relativeMarginalCostCiHigh(), f.fixedCostMs(), f.marginalCostMsPerSample(), f.reason()));
            }
        }
        return fits;
    }

    /**
     * Greedy tokens against a reference: for a built-in, the double-precision model (where its cost allows) is the
     * reference of every engine; otherwise the first engine is the reference of the others.
     */
    private List<GenerationResult.TokenAgreement> agreement(List<CellResult> results) {
        Map<String, long[][]> tokens = new HashMap<>();
        for (CellResult c : results) {
            if (c.measured()) {
                tokens.put(key(c.backend(), c.device(), c.model(), c.seqLen(), c.batch()), outputs(c).get(0).tokens());
            }
        }
        List<GenerationResult.TokenAgreement> rows = new ArrayList<>();
        Map<String, DecoderReference> references = new HashMap<>();
        Map<String, long[]> referenceRows = new HashMap<>();
        long seed = options.rules().seed();
        for (String device : options.plan().devices()) {
            for (String model : options.plan().models()) {
                for (int seq : options.plan().seqLens()) {
                    for (int batch : options.plan().batches()) {
                        long[][] reference = null;
                        String referenceName = null;
                        if (ModelSource.parse(model) instanceof ModelSource.BuiltinDecoder decoder && referenceAffordable(decoder, seq, batch)) {
                            DecoderReference ref = references.computeIfAbsent(model,
                                    m -> new DecoderReference(DecoderWeights.generate(decoder.preset().config(), seed)));
                            long[] prompt = GenerationKind.prompt(seed, seq, batch);
                            reference = new long[batch][];
                            for (int b = 0; b < batch; b++) {
                                long[] row = java.util.Arrays.copyOfRange(prompt, b * seq, (b + 1) * seq);
                                reference[b] = referenceRows.computeIfAbsent(model + "|" + seq + "|" + b,
                                        k -> ref.generate(row, kind.newTokens()).tokens());
                            }
                            referenceName = "reference (double precision)";
                        }
                        if (ModelSource.parse(model) instanceof ModelSource.BuiltinSeq2Seq) {
                            Seq2SeqReference ref = seq2seqReference(seed);
                            long[] prompt = GenerationKind.prompt(seed, seq, batch);
                            reference = new long[batch][];
                            for (int b = 0; b < batch; b++) {
                                long[] row = java.util.Arrays.copyOfRange(prompt, b * seq, (b + 1) * seq);
                                reference[b] = ref.generate(ref.encodeText(row), io.inferbench.model.ExampleModels.DECODER_START_TOKEN_ID,
                                        kind.newTokens());
                            }
                            referenceName = "reference (double precision)";
                        }
                        for (String backend : options.plan().backends()) {
                            long[][] candidate = tokens.get(key(backend, device, model, seq, batch));
                            if (candidate == null) {
                                continue;
                            }
                            if (reference == null) {
                                reference = candidate;
                                referenceName = backend + " " + device;
                                continue;
                            }
                            Integer mismatch = firstMismatch(reference, candidate);
                            rows.add(new GenerationResult.TokenAgreement(referenceName, backend + " " + device, model, seq, batch,
                                    kind.newTokens(), mismatch == null, mismatch));
                        }
                    }
                }
            }
        }
        return rows;
    }

    private Seq2SeqReference seq2seq;

    /** The built-in encoder-decoder's reference, from the run's seed. */
    private Seq2SeqReference seq2seqReference(long seed) {
        if (seq2seq == null) {
            seq2seq = new Seq2SeqReference(Seq2SeqWeights.generate(ModelSource.BuiltinSeq2Seq.CONFIG,
                    io.inferbench.model.ExampleModels.AUDIO_FEATURES, seed));
        }
        return seq2seq;
    }

    private static String key(String backend, String device, String model, int seq, int batch) {
        return String.join("|", backend, device, model, Integer.toString(seq), Integer.toString(batch));
    }

    private boolean referenceAffordable(ModelSource.BuiltinDecoder decoder, int seq, int batch) {
        DecoderConfig c = decoder.preset().config();
        return (double) c.matmulParameters() * batch * (seq + kind.newTokens()) <= REFERENCE_MAX_MACS;
    }

    static Integer firstMismatch(long[][] reference, long[][] candidate) {
        Integer first = null;
        for (int b = 0; b < reference.length; b++) {
            for (int i = 0; i < reference[b].length; i++) {
                if (reference[b][i] != candidate[b][i]) {
                    first = first == null ? i : Math.min(first, i);
                    break;
                }
            }
        }
        return first;
    }

    /**
     * The cache at each cell's batch and context, and with a budget, whether it fits beside the largest resident set a
     * fork JVM had with its models loaded (at the end of any cell's measurement).
     */
    private List<GenerationResult.CacheSize> memory(List<GenerationResult.Cell> cells, List<CellResult> results) {
        double rssMb = results.stream().filter(c -> c.forkRuns() != null).flatMap(c -> c.forkRuns().stream())
                .map(CellFork::memory).filter(Objects::nonNull).mapToDouble(m -> m.rssEndMb()).max().orElse(0);
        Map<String, GenerationResult.CacheSize> rows = new LinkedHashMap<>();
        for (GenerationResult.Cell c : cells) {
            long context = c.seqLen() + kind.newTokens() - 1L;
            long perPosition = c.kvCacheBytes() / Math.max(1, context);
            Long maxContext = null;
            if (memoryBudgetMb != null) {
                long room = (long) ((memoryBudgetMb - rssMb) * 1024 * 1024);
                maxContext = Math.max(0, room / Math.max(1, perPosition));
            }
            rows.putIfAbsent(c.model() + "|" + c.batch() + "|" + context, new GenerationResult.CacheSize(c.model(), c.batch(),
                    context, c.kvCacheBytes(), perPosition, maxContext));
        }
        return List.copyOf(rows.values());
    }

    /** Each cell that failed, with why: its other cells are kept, and the run exits 1 (3 for a crash of inferbench). */
    private static List<String> failures(List<CellResult> results) {
        return results.stream().filter(c -> !c.measured()).map(c -> c.id() + ": " + c.error()).toList();
    }
}
