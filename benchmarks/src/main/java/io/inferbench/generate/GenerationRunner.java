package io.inferbench.generate;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.BatchScalingAnalyzer;
import io.inferbench.analysis.LatencyPoint;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.engine.Device;
import io.inferbench.engine.Engines;
import io.inferbench.engine.SessionSpec;
import io.inferbench.inputs.KvPair;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.measure.StopPolicy;
import io.inferbench.measure.StopRule;
import io.inferbench.measure.WarmupRule;
import io.inferbench.model.DecoderConfig;
import io.inferbench.model.DecoderReference;
import io.inferbench.model.DecoderWeights;
import io.inferbench.model.ModelSource;
import io.inferbench.profile.Calibrations;
import io.inferbench.profile.Roofline;
import io.inferbench.results.GenerationResult;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunResult;
import io.inferbench.sweep.SweepOptions;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Measures generation ({@code -Dbench.generate=N}): for each engine, device and decoder, each prompt length x batch is a
 * cell whose unit is one whole {@link Generation}. A cell warms up until the generations' time is steady
 * ({@link WarmupRule}) and measures until its median is precise ({@link StopRule}), with at least
 * {@link GenerationOptions#MIN_GENERATIONS} generations. {@code bench.forks} rounds measure every cell again; in each
 * round every engine, device and decoder runs in a fresh fork JVM ({@link GenerationForkMain}), as the sweep's
 * {@code isolation=model} does, its cells in a seeded order of their own; histograms are merged. A fork that fails is
 * recorded in {@code failures} and every other fork's cells are kept.
 */
public final class GenerationRunner {
    /** A prompt's ids are drawn from [0, this): valid in any real vocabulary. */
    static final int PROMPT_ID_BOUND = 1000;
    /** Built-in sequences whose reference costs more multiply-adds than this are compared engine against engine only. */
    static final double REFERENCE_MAX_MACS = 2e10;

    private final GenerationOptions options;
    private final SweepOptions sweep;
    private final PrintStream console;
    private final GenerationForks forks;

    /** @param forks how each round's fork JVM is run */
    public GenerationRunner(GenerationOptions options, SweepOptions sweep, GenerationForks forks, PrintStream console) {
        this.options = options;
        this.sweep = sweep;
        this.forks = forks;
        this.console = console;
    }

    /** The session spec of a decoder on an engine and device. */
    static SessionSpec spec(SweepOptions sweep, ModelSource source, Path file, String device) {
        return new SessionSpec(source, file, sweep.rules().seed(), Device.parse(device), sweep.engines().intraOpThreads(),
                sweep.engines().interOpThreads(), sweep.engines().allowCpuFallback(), sweep.engines().inputs());
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

    /**
     * Runs every cell.
     *
     * @param models each model's source and file, resolved by the preflight
     * @param run    the run so far, for its environment (the roofs' hardware)
     */
    public GenerationResult run(Map<String, ModelSource> sources, Map<String, Path> models, RunResult run) {
        Map<GenerationCellKey, CellRecorder> cells = new LinkedHashMap<>();
        int rounds = sweep.rules().forks();
        MeasurePolicy policy = sweep.rules().measurePolicy();
        StopPolicy stop = new StopPolicy(policy.stop().fixedPasses(), policy.stop().precision(), policy.stop().confidence(),
                Math.max(policy.stop().minPasses(), GenerationOptions.MIN_GENERATIONS), policy.stop().minMs(),
                Math.max(policy.stop().capMs(), GenerationOptions.MIN_MEASURE_CAP_MS));
        long rssWithModels = 0;
        List<String> failures = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            for (String backend : sweep.plan().backends()) {
                for (String device : sweep.plan().devices()) {
                    for (String model : sweep.plan().models()) {
                        if (!Engines.canLoad(backend, sources.get(model))) {
                            continue;
                        }
                        List<int[]> order = new ArrayList<>();
                        for (int seq : sweep.plan().seqLens()) {
                            for (int batch : sweep.plan().batches()) {
                                order.add(new int[] {seq, batch});
                            }
                        }
                        Collections.shuffle(order, new java.util.Random(sweep.rules().seed() * 31 + round));
                        GenerationJob job = new GenerationJob(backend, device, model, models.get(model).toString(),
                                sweep.rules().seed(), sweep.engines().intraOpThreads(), sweep.engines().interOpThreads(),
                                sweep.engines().allowCpuFallback(), sweep.engines().inputs().dims(),
                                options.kvPairs().stream().map(KvPair::toString).toList(), sweep.engines().nativeCacheDir().toString(),
                                options.newTokens(), round, order, policy.warmup(), stop);
                        try {
                            GenerationJob.Result result = forks.run(job);
                            rssWithModels = Math.max(rssWithModels, result.rssBytes());
                            for (GenerationJob.CellResult cell : result.cells()) {
                                cells.computeIfAbsent(new GenerationCellKey(backend, device, model, cell.seqLen(), cell.batch()),
                                        k -> new CellRecorder()).merge(cell);
                            }
                        } catch (BenchmarkException e) {
                            String failure = Text.f("round %d, %s %s %s: %s", round + 1, backend, device, model, e.getMessage());
                            failures.add(failure);
                            console.println("[inferbench] generation fork FAILED: " + failure + "; every other fork's cells are kept");
                        }
                    }
                }
            }
        }
        List<GenerationResult.Cell> results = new ArrayList<>();
        Map<String, ProfileResult.Calibration> roofs = new HashMap<>();
        List<Map.Entry<GenerationCellKey, CellRecorder>> sorted = new ArrayList<>(cells.entrySet());
        sorted.sort(java.util.Comparator.comparing((Map.Entry<GenerationCellKey, CellRecorder> e) -> e.getKey().backend())
                .thenComparing(e -> e.getKey().device()).thenComparing(e -> e.getKey().model())
                .thenComparingInt(e -> e.getKey().seqLen()).thenComparingInt(e -> e.getKey().batch()));
        for (Map.Entry<GenerationCellKey, CellRecorder> e : sorted) {
            results.add(cell(e.getKey(), e.getValue(), sources.get(e.getKey().model()), run, roofs));
        }
        List<GenerationResult.Fit> fits = fits(results);
        List<GenerationResult.TokenAgreement> agreement = agreement(cells, sources);
        List<GenerationResult.CacheSize> memory = memory(results, rssWithModels);
        String convention = "the keys and values of every layer after the last step: prompt + newTokens - 1 positions, "
                + "2 x layers x batch x heads x positions x headDim x bytes per element, summed over the model's cache outputs";
        String handOff = "onnxruntime: the step's present outputs are handed to the next step as host tensors (ONNX Runtime "
                + "Java has no IOBinding): no copy on the CPU; on CUDA every step copies the whole cache device -> host and "
                + "back, inside the step's time. djl: the cache stays where PyTorch made it (on the device). The hand-off "
                + "time is the Java side only: new ids, positions and mask, the cache passed from outputs to inputs, and the release of "
                + "the step before's tensors";
        return new GenerationResult(options.newTokens(), convention, handOff, rounds, results, fits, agreement, memory, failures);
    }

    private GenerationResult.Cell cell(GenerationCellKey key, CellRecorder r, ModelSource source, RunResult run,
                                       Map<String, ProfileResult.Calibration> roofs) {
        double totalP50Seconds = r.total.getValueAtPercentile(50) / 1e9;
        double perSequence = options.newTokens() / totalP50Seconds;
        LatencySummary prefill = CellRecorder.summary(r.prefill);
        LatencySummary step = CellRecorder.summary(r.step);
        List<Double> byPosition = r.stepP50ByPosition();
        GenerationResult.PhaseRoofline prefillRoof = null;
        GenerationResult.PhaseRoofline stepRoof = null;
        if (source instanceof ModelSource.BuiltinDecoder decoder) {
            ProfileResult.Calibration peaks = roofs.computeIfAbsent(key.backend() + " " + key.device(), k -> peaks(key, run));
            if (peaks != null) {
                DecoderConfig c = decoder.preset().config();
                prefillRoof = place(DecoderWork.prefill(c, key.batch(), key.seqLen()), prefill.p50Ms(), peaks);
                if (!byPosition.isEmpty()) {
                    long positions = key.seqLen() + options.newTokens() - 1L;
                    stepRoof = place(DecoderWork.step(c, key.batch(), positions), byPosition.get(byPosition.size() - 1), peaks);
                }
            }
        }
        return new GenerationResult.Cell(key.backend(), key.device(), key.model(), key.seqLen(), key.batch(), options.newTokens(),
                r.total.getTotalCount(), r.warmupGenerations, List.copyOf(r.stops), CellRecorder.summary(r.ttft), prefill, step,
                CellRecorder.summary(r.handOff), byPosition, perSequence, perSequence * key.batch(), r.cacheBytes, prefillRoof,
                stepRoof);
    }

    private ProfileResult.Calibration peaks(GenerationCellKey key, RunResult run) {
        try {
            return Calibrations.measureOrRead(key.backend(), key.device(), sweep.engines().intraOpThreads(),
                    sweep.engines().interOpThreads(), io.inferbench.profile.ProfileRunner.hardware(run, key.device()), sweep.engines().cacheDir(), sweep.engines().nativeCacheDir());
        } catch (BenchmarkException e) {
            console.println("[inferbench] generate: no roofs for " + key.backend() + " on " + key.device() + " (" + e.getMessage()
                    + "); the phases are classed by their batch slope only");
            return null;
        }
    }

    private static GenerationResult.PhaseRoofline place(DecoderWork work, double passMs, ProfileResult.Calibration peaks) {
        Roofline.Placed placed = Roofline.place(work.flops(), work.bytes(), passMs, peaks.callFloorMs(), peaks,
                ProfileResult.RooflineThresholds.DEFAULTS);
        return new GenerationResult.PhaseRoofline(work.flops(), work.bytes(), placed.intensity(), placed.flopsPercent(),
                placed.bytesPercent(), placed.rooflineClass(), placed.reason());
    }

    /** Each phase's p50 against batch, fitted and classed by the sweep's rule and thresholds. */
    private List<GenerationResult.Fit> fits(List<GenerationResult.Cell> cells) {
        List<GenerationResult.Fit> fits = new ArrayList<>();
        for (String phase : List.of("prefill", "decode")) {
            List<LatencyPoint> points = new ArrayList<>();
            for (GenerationResult.Cell c : cells) {
                LatencySummary s = phase.equals("prefill") ? c.prefillMs() : c.stepMs();
                if (s != null) {
                    points.add(new LatencyPoint(c.backend(), c.device(), c.model(), c.seqLen(), c.batch(), s.p50Ms(), s.p90Ms(),
                            s.p99Ms(), c.batch() * 1000.0 / s.p50Ms(), s.stdevMs() / s.meanMs()));
                }
            }
            Analysis analysis = BatchScalingAnalyzer.analyze(points, sweep.rules().regimeThresholds());
            for (SeriesFit f : analysis.fits()) {
                fits.add(new GenerationResult.Fit(f.backend(), f.device(), f.model(), f.seqLen(), phase, f.batches(), f.p50Ms(),
                        f.regime(), f.borderline(), f.relativeMarginalCost(), f.relativeMarginalCostCiLow(),
                        f.relativeMarginalCostCiHigh(), f.fixedCostMs(), f.marginalCostMsPerSample(), f.reason()));
            }
        }
        return fits;
    }

    /**
     * Greedy tokens against a reference: for a built-in, the double-precision model (where its cost allows) is the
     * reference of every engine; otherwise the first engine is the reference of the others.
     */
    private List<GenerationResult.TokenAgreement> agreement(Map<GenerationCellKey, CellRecorder> cells,
                                                            Map<String, ModelSource> sources) {
        List<GenerationResult.TokenAgreement> rows = new ArrayList<>();
        Map<String, DecoderReference> references = new HashMap<>();
        Map<String, long[]> referenceRows = new HashMap<>();
        for (String device : sweep.plan().devices()) {
            for (String model : sweep.plan().models()) {
                for (int seq : sweep.plan().seqLens()) {
                    for (int batch : sweep.plan().batches()) {
                        long[][] reference = null;
                        String referenceName = null;
                        if (sources.get(model) instanceof ModelSource.BuiltinDecoder decoder && referenceAffordable(decoder, seq, batch)) {
                            DecoderReference ref = references.computeIfAbsent(model,
                                    m -> new DecoderReference(DecoderWeights.generate(decoder.preset().config(), sweep.rules().seed())));
                            long[] prompt = prompt(sweep.rules().seed(), seq, batch);
                            reference = new long[batch][];
                            for (int b = 0; b < batch; b++) {
                                long[] row = java.util.Arrays.copyOfRange(prompt, b * seq, (b + 1) * seq);
                                String rowKey = model + "|" + seq + "|" + b;
                                reference[b] = referenceRows.computeIfAbsent(rowKey, k -> ref.generate(row, options.newTokens()).tokens());
                            }
                            referenceName = "reference (double precision)";
                        }
                        for (String backend : sweep.plan().backends()) {
                            CellRecorder r = cells.get(new GenerationCellKey(backend, device, model, seq, batch));
                            if (r == null || r.firstTokens == null) {
                                continue;
                            }
                            if (reference == null) {
                                reference = r.firstTokens;
                                referenceName = backend + " " + device;
                                continue;
                            }
                            Integer mismatch = firstMismatch(reference, r.firstTokens);
                            rows.add(new GenerationResult.TokenAgreement(referenceName, backend + " " + device, model, seq, batch,
                                    options.newTokens(), mismatch == null, mismatch));
                        }
                    }
                }
            }
        }
        return rows;
    }

    private boolean referenceAffordable(ModelSource.BuiltinDecoder decoder, int seq, int batch) {
        DecoderConfig c = decoder.preset().config();
        return (double) c.matmulParameters() * batch * (seq + options.newTokens()) <= REFERENCE_MAX_MACS;
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

    /** The cache at each cell's batch and context, and with a budget, whether it fits beside what the process holds. */
    private List<GenerationResult.CacheSize> memory(List<GenerationResult.Cell> cells, long rssWithModels) {
        Map<String, GenerationResult.CacheSize> rows = new LinkedHashMap<>();
        for (GenerationResult.Cell c : cells) {
            long context = c.seqLen() + options.newTokens() - 1L;
            long perPosition = c.kvCacheBytes() / Math.max(1, context);
            Long maxContext = null;
            if (options.memoryBudgetMb() != null) {
                long room = (long) (options.memoryBudgetMb() * 1024 * 1024) - rssWithModels;
                maxContext = Math.max(0, room / Math.max(1, perPosition));
            }
            rows.putIfAbsent(c.model() + "|" + c.batch() + "|" + context, new GenerationResult.CacheSize(c.model(), c.batch(), context,
                    c.kvCacheBytes(), perPosition, maxContext));
        }
        return List.copyOf(rows.values());
    }
}
