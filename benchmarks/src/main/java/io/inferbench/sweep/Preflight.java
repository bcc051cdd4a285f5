package io.inferbench.sweep;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.backend.Backends;
import io.inferbench.backend.Device;
import io.inferbench.backend.InferenceBackend;
import io.inferbench.backend.InferenceSession;
import io.inferbench.backend.SessionSpec;
import io.inferbench.backend.TokenBatch;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.model.ResolvedModel;
import io.inferbench.model.TokenInputs;
import io.inferbench.profile.OpTrace;
import io.inferbench.profile.Placement;
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

    /** What the checks found out, for the run's conditions. */
    public record Result(Map<String, ResolvedModel> models, Map<String, String> engines, List<Probe> probes) {
    }

    /** Timed passes per probe shape, after one cold pass; their median is kept. */
    static final int PROBE_PASSES = 3;

    private Preflight() {
    }

    public static Result check(SweepOptions options, PrintStream log) {
        RunStore.checkWritable(options.resultsDir());
        ModelResolver resolver = new ModelResolver(options.cacheDir(), options.seed());
        Map<String, ResolvedModel> models = new LinkedHashMap<>();
        for (String name : options.models()) {
            models.put(name, resolver.resolve(ModelSource.parse(name)));
        }
        Map<String, String> engines = new LinkedHashMap<>();
        List<Probe> probes = new ArrayList<>();
        int minSeq = Collections.min(options.seqLens());
        int minBatch = Collections.min(options.batches());
        int maxSeq = Collections.max(options.seqLens());
        int maxBatch = Collections.max(options.batches());
        for (String backendName : options.backends()) {
            InferenceBackend backend = Backends.create(backendName, options.djlCacheDir());
            engines.put(backendName, backend.buildInfo());
            for (String device : options.devices()) {
                for (ResolvedModel model : models.values()) {
                    if (!Backends.canLoad(backendName, ModelSource.parse(model.name()))) {
                        continue;
                    }
                    String where = backendName + " on " + device + " with model " + model.name();
                    SeriesKey.EngineModel target = new SeriesKey.EngineModel(backendName, device, model.name());
                    try (InferenceSession session = backend.open(new SessionSpec(ModelSource.parse(model.name()), model.path(),
                            options.seed(), Device.parse(device), options.intraOpThreads(), options.interOpThreads(),
                            options.allowCpuFallback()))) {
                        checkShapes(session, options.seqLens(), options.batches(), where);
                        if (Device.parse(device).isCuda() && !options.allowCpuFallback()) {
                            checkPlacement(backend, model, device, options, minBatch, minSeq);
                        }
                        probes.add(probe(session, target, minBatch, minSeq, options.seed(), where));
                        if (maxBatch != minBatch || maxSeq != minSeq) {
                            probes.add(probe(session, target, maxBatch, maxSeq, options.seed(), where));
                        }
                    } catch (BenchmarkException e) {
                        throw new BenchmarkException("Preflight failed for " + where + ". " + e.getMessage(), e);
                    }
                    log.printf("[inferbench] preflight ok: %s (passes at batch %d x seq %d and at batch %d x seq %d)%n",
                            where, minBatch, minSeq, maxBatch, maxSeq);
                }
            }
        }
        return new Result(models, engines, List.copyOf(probes));
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
            return new Probe(target, (long) batch * seq, passMs[PROBE_PASSES / 2]);
        } catch (BenchmarkException e) {
            throw e;
        } catch (RuntimeException | OutOfMemoryError e) {
            throw new BenchmarkException("A forward pass of " + where + " at batch " + batch + " x seq " + seq + " failed (" + e
                    + "): the sweep's largest shape must fit in memory. Lower -Dbench.batch or -Dbench.seq, or raise "
                    + "-Dbench.jvmArgs", e);
        }
    }

    /**
     * On CUDA, one profiled pass at the smallest shape: a compute node on the CPU, or more than 1% of the pass there,
     * stops the sweep now, naming the nodes (see {@link Placement}). Engines without a profiler are not checked here.
     */
    private static void checkPlacement(InferenceBackend backend, ResolvedModel model, String device, SweepOptions options,
                                       int batch, int seq) {
        Path traces;
        try {
            traces = Files.createTempDirectory("inferbench-placement");
        } catch (IOException e) {
            throw new BenchmarkException("Could not make a folder for the placement profile: " + e, e);
        }
        backend.profilePass(new SessionSpec(ModelSource.parse(model.name()), model.path(), options.seed(), Device.parse(device),
                options.intraOpThreads(), options.interOpThreads(), false), TokenBatch.full(batch, seq,
                TokenInputs.tokenIds(batch, seq, options.seed())), 1, 1, traces).ifPresent(trace -> {
                    String refusal = Placement.of(OpTrace.parse(trace, 1)).refusal();
                    if (refusal != null) {
                        throw new BenchmarkException(refusal);
                    }
                });
    }

    private static void checkShapes(InferenceSession session, List<Integer> seqLens, List<Integer> batches, String where) {
        for (int seq : seqLens) {
            for (int batch : batches) {
                String problem = session.inputLayout().incompatibility(batch, seq);
                if (problem != null) {
                    throw new BenchmarkException("The model cannot take batch " + batch + " x seqLen " + seq + ": " + problem
                            + ". Restrict the sweep with -Dbench.batch / -Dbench.seq, or export the model with dynamic axes");
                }
            }
        }
    }
}
