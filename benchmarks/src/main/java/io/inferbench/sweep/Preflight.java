package io.inferbench.sweep;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.engine.Device;
import io.inferbench.engine.Engines;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.OutputSpec;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.TokenBatch;
import io.inferbench.inputs.InputPlan;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.model.ResolvedModel;
import io.inferbench.model.TokenInputs;
import io.inferbench.precision.OutputMatch;
import io.inferbench.precision.PrecisionCheck;
import io.inferbench.profile.OpTrace;
import io.inferbench.profile.Placement;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunStore;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything that can be wrong with a sweep, checked in seconds before the first measurement: the results
 * folder is writable, every model resolves and loads, its inputs are a layout the harness can fill, every
 * requested shape fits its axes, and every device can actually be used: real forward passes at the smallest shape and
 * at the largest on each backend/device/model, so a shape that does not fit in memory fails now, not an hour in.
 *
 * <p>At each shape, one cold pass and then {@value #PROBE_PASSES} timed ones, whose median is kept as a {@link Probe}:
 * not a measurement, but what lets the progress line price the large cells before any of them has run.
 */
public final class Preflight {
    /** One untimed-by-the-results pass at a shape, to estimate how long the sweep will take. */
    public record Probe(SeriesKey.EngineModel target, long tokens, double passMs) {
    }

    /**
     * What the checks found out, for the run's conditions.
     *
     * @param inputs each model's input plan, by its resolved name ({@link ResolvedModel#name}), from the first engine
     *               that opened it
     */
    public record Result(Map<String, ResolvedModel> models, Map<String, String> engines, List<Probe> probes,
                         Map<String, InputPlan> inputs) {
        /** Each model as run.json records it, by the name the user gave, in the order given, with its inputs. */
        public Map<String, RunConfig.ModelInfo> modelInfos() {
            Map<String, RunConfig.ModelInfo> infos = new LinkedHashMap<>();
            models.forEach((name, m) -> infos.put(name, new RunConfig.ModelInfo(m.name(), m.sha256(), m.sizeBytes(),
                    m.description(), inputs.containsKey(m.name()) ? record(inputs.get(m.name())) : null)));
            return infos;
        }

        private static RunConfig.ModelInputs record(InputPlan plan) {
            return new RunConfig.ModelInputs(plan.batchAxis(), plan.seqAxis(), plan.dims(), plan.specFile(), plan.specSha256(),
                    plan.inputs().stream().map(i -> new RunConfig.InputInfo(i.name(), i.type().label(),
                            i.shape().stream().map(Object::toString).toList(), i.valuesLabel())).toList());
        }
    }

    /** Timed passes per probe shape, after one cold pass; their median is kept. */
    static final int PROBE_PASSES = 3;

    private Preflight() {
    }

    public static Result check(SweepOptions options, PrintStream log) {
        RunStore.checkWritable(options.output().resultsDir());
        ModelResolver resolver = new ModelResolver(options.engines().cacheDir(), options.rules().seed());
        Map<String, ResolvedModel> models = new LinkedHashMap<>();
        for (String name : options.plan().models()) {
            models.put(name, resolver.resolve(ModelSource.parse(name)));
        }
        Map<String, String> engines = new LinkedHashMap<>();
        List<Probe> probes = new ArrayList<>();
        Map<String, List<OutputSpec>> outputs = new LinkedHashMap<>();
        Map<String, InputPlan> inputs = new LinkedHashMap<>();
        int minSeq = Collections.min(options.plan().seqLens());
        int minBatch = Collections.min(options.plan().batches());
        int maxSeq = Collections.max(options.plan().seqLens());
        int maxBatch = Collections.max(options.plan().batches());
        for (String backendName : options.plan().backends()) {
            InferenceEngine backend = Engines.create(backendName, options.engines().nativeCacheDir());
            engines.put(backendName, backend.buildInfo());
            for (String device : options.plan().devices()) {
                for (ResolvedModel model : models.values()) {
                    if (!Engines.canLoad(backendName, ModelSource.parse(model.name()))) {
                        continue;
                    }
                    String where = backendName + " on " + device + " with model " + model.name();
                    SeriesKey.EngineModel target = new SeriesKey.EngineModel(backendName, device, model.name());
                    try (InferenceSession session = backend.open(new SessionSpec(ModelSource.parse(model.name()), model.path(),
                            options.rules().seed(), Device.parse(device), options.engines().intraOpThreads(), options.engines().interOpThreads(),
                            options.engines().allowCpuFallback(), options.engines().inputs()))) {
                        checkShapes(session, options.plan().seqLens(), options.plan().batches(), where);
                        checkKernels(backend, model, device, options, minBatch, minSeq);
                        outputs.put(backendName + "/" + device + "/" + model.name(), session.outputs());
                        inputs.putIfAbsent(model.name(), session.inputs());
                        probes.add(probe(session, target, minBatch, minSeq, options.rules().seed(), where));
                        if (maxBatch != minBatch || maxSeq != minSeq) {
                            probes.add(probe(session, target, maxBatch, maxSeq, options.rules().seed(), where));
                        }
                    } catch (BenchmarkException e) {
                        throw new BenchmarkException("Preflight failed for " + where + ". " + e.getMessage(), e);
                    }
                    log.printf("[inferbench] preflight ok: %s (passes at batch %d%s and at batch %d%s)%n",
                            where, minBatch, minSeq == 0 ? "" : " x seq " + minSeq, maxBatch, maxSeq == 0 ? "" : " x seq " + maxSeq);
                }
            }
        }
        if (options.plan().reference() != null) {
            checkOutputsMatch(options, outputs);
        }
        return new Result(models, engines, List.copyOf(probes), inputs);
    }

    /** Every pair with the reference, on each engine and device, must have outputs that can be compared value by value. */
    private static void checkOutputsMatch(SweepOptions options, Map<String, List<OutputSpec>> outputs) {
        for (String backend : options.plan().backends()) {
            for (String device : options.plan().devices()) {
                List<OutputSpec> reference = outputs.get(backend + "/" + device + "/" + options.plan().reference());
                for (String model : options.plan().models()) {
                    List<OutputSpec> candidate = outputs.get(backend + "/" + device + "/" + model);
                    if (reference == null || candidate == null || model.equals(options.plan().reference())) {
                        continue;
                    }
                    String refusal = OutputMatch.refusal(reference, candidate);
                    if (refusal != null) {
                        throw new BenchmarkException("Cannot compare " + model + " with the reference " + options.plan().reference()
                                + " on " + backend + "/" + device + ": " + refusal + ". Compare models with the same outputs, "
                                + "or drop -Dbench.reference");
                    }
                }
            }
        }
    }

    private static Probe probe(InferenceSession session, SeriesKey.EngineModel target, int batch, int seq, long seed, String where) {
        try {
            session.prepare(batch, seq, TokenInputs.tokenIds(batch, seq, seed));
            session.forward();
            double[] passMs = new double[PROBE_PASSES];
            for (int i = 0; i < PROBE_PASSES; i++) {
                long start = System.nanoTime();
                session.forward();
                passMs[i] = (System.nanoTime() - start) / 1e6;
            }
            Arrays.sort(passMs);
            return new Probe(target, (long) batch * Math.max(1, seq), passMs[PROBE_PASSES / 2]);
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
    private static void checkKernels(InferenceEngine backend, ResolvedModel model, String device, SweepOptions options,
                                     int batch, int seq) {
        Path traces;
        try {
            traces = Files.createTempDirectory("inferbench-preflight");
        } catch (IOException e) {
            throw new BenchmarkException("Could not make a folder for the preflight profile: " + e, e);
        }
        try {
            backend.profilePass(new SessionSpec(ModelSource.parse(model.name()), model.path(), options.rules().seed(), Device.parse(device),
                    options.engines().intraOpThreads(), options.engines().interOpThreads(), false, options.engines().inputs()), TokenBatch.full(batch, seq,
                    TokenInputs.tokenIds(batch, seq, options.rules().seed())), 1, 1, traces).ifPresent(trace -> {
                        OpTrace parsed = OpTrace.parse(trace, 1);
                        if (Device.parse(device).isCuda() && !options.engines().allowCpuFallback()) {
                            String refusal = Placement.of(parsed).refusal();
                            if (refusal != null) {
                                throw new BenchmarkException(refusal);
                            }
                        }
                        String precision = PrecisionCheck.refusal(parsed, model.name(), device, backend.name() + " "
                                + backend.engineVersion());
                        if (precision != null) {
                            throw new BenchmarkException(precision);
                        }
                    });
        } finally {
            deleteQuietly(traces);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind is harmless
        }
    }

    private static void checkShapes(InferenceSession session, List<Integer> seqLens, List<Integer> batches, String where) {
        for (int seq : seqLens) {
            for (int batch : batches) {
                session.inputs().requireFits(batch, seq);
            }
        }
    }
}
