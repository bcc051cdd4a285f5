package io.inferbench.sweep;

import io.inferbench.BenchmarkException;
import io.inferbench.backend.Backends;
import io.inferbench.backend.Device;
import io.inferbench.backend.InferenceBackend;
import io.inferbench.backend.InferenceSession;
import io.inferbench.backend.SessionSpec;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.model.ResolvedModel;
import io.inferbench.model.TokenInputs;
import io.inferbench.report.RunStore;

import java.io.PrintStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything that can be wrong with a sweep, checked in seconds before the first measurement: the results
 * folder is writable, every model resolves and loads, its inputs are a layout the harness can fill, every
 * requested shape fits its axes, and every device can actually be used (one real forward pass at the smallest
 * shape on each backend/device/model).
 */
public final class Preflight {
    /** What the checks found out, for the run's conditions. */
    public record Result(Map<String, ResolvedModel> models, Map<String, String> engines) {
    }

    private Preflight() {
    }

    public static Result check(SweepOptions options, PrintStream log) {
        RunStore.checkWritable(options.resultsDir());
        ModelResolver resolver = new ModelResolver(options.cacheDir(), options.seed());
        Map<String, ResolvedModel> models = new LinkedHashMap<>();
        for (String name : options.models()) {
            log.println("[inferbench] resolving model " + name + " (built-ins are generated once into " + options.cacheDir() + ")");
            models.put(name, resolver.resolve(ModelSource.parse(name)));
        }
        Map<String, String> engines = new LinkedHashMap<>();
        int minSeq = Collections.min(options.seqLens());
        int minBatch = Collections.min(options.batches());
        for (String backendName : options.backends()) {
            InferenceBackend backend = Backends.byName(backendName);
            engines.put(backendName, backend.buildInfo());
            for (String device : options.devices()) {
                for (ResolvedModel model : models.values()) {
                    if (!Backends.canLoad(backendName, ModelSource.parse(model.name()))) {
                        continue;
                    }
                    String where = backendName + " on " + device + " with model " + model.name();
                    log.println("[inferbench] preflight: " + where);
                    try (InferenceSession session = backend.open(new SessionSpec(ModelSource.parse(model.name()), model.path(),
                            options.seed(), Device.parse(device), options.intraOpThreads(), options.interOpThreads(),
                            options.allowCpuFallback()))) {
                        checkShapes(session, options.seqLens(), options.batches(), where);
                        session.prepare(minBatch, minSeq, TokenInputs.tokenIds(minBatch, minSeq, options.seed()));
                        session.forward();
                    } catch (BenchmarkException e) {
                        throw new BenchmarkException("Preflight failed for " + where + ". " + e.getMessage(), e);
                    }
                }
            }
        }
        return new Result(models, engines);
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
