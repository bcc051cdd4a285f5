package io.inferbench.runner;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.engine.Engines;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.Pairing;
import io.inferbench.inputs.InputPlan;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.model.ResolvedModel;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunStore;

import java.io.PrintStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything that can be wrong with a run, checked in seconds before the first measurement, whatever its cells' kind:
 * the results folder is writable, every model is one the kind can measure ({@link CellKind#checkModel}) and resolves,
 * and every engine, device and model of the plan opens and runs units at the smallest and the largest shape
 * ({@link CellKind#check}), so that a shape that does not fit in memory fails now, not an hour in; then what must hold
 * across them ({@link CellKind#checkTogether}).
 *
 * <p>At each shape the kind times a few units after a cold one, whose median is kept as a {@link TrialPass}: not a
 * measurement, but what lets the progress line price the large cells before any of them has run.
 */
public final class Preflight {
    /** One untimed-by-the-results unit at a shape, to estimate how long the run will take. */
    public record TrialPass(SeriesKey.EngineModel target, long tokens, double passMs) {
    }

    /**
     * What the checks found out, for the run's conditions.
     *
     * @param inputs each model's input plan, by its resolved name ({@link ResolvedModel#name}), from the first engine
     *               that opened it
     */
    public record Result(Map<String, ResolvedModel> models, Map<String, String> engines, List<TrialPass> trials,
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

    /** Timed units per probe shape, after one cold unit; their median is kept. */
    public static final int PROBE_PASSES = 3;

    private Preflight() {
    }

    public static Result check(SweepOptions options, CellKind kind, PrintStream log) {
        return check(options, kind, log, null);
    }

    /**
     * @param forks how a user's own code ({@code -Dbench.target}) is checked: in a fork JVM of its own ({@link PreflightFork}),
     *              where what the code does to its JVM (an exit, a hang, running out of memory) cannot end or hang this
     *              run; null checks it in this JVM, as every engine is
     */
    public static Result check(SweepOptions options, CellKind kind, PrintStream log, ForkExecutor forks) {
        RunStore.checkWritable(options.output().resultsDir());
        JvmForkExecutor.checkJvmArgs(options.forkJvms().jvmArgs());
        ModelResolver resolver = new ModelResolver(options.engines().cacheDir(), options.rules().seed());
        Map<String, ResolvedModel> models = new LinkedHashMap<>();
        for (String name : options.plan().models()) {
            ModelSource source = ModelSource.parse(name);
            kind.checkModel(source, options);
            models.put(name, resolver.resolve(source));
        }
        Map<String, String> engines = new LinkedHashMap<>();
        for (String backend : options.plan().backends()) {
            engines.put(backend, Engines.create(backend, options.engines().nativeCacheDir()).buildInfo());
        }
        List<TrialPass> trials = new java.util.ArrayList<>();
        Map<String, InputPlan> inputs = new LinkedHashMap<>();
        Map<Pairing, CellKind.PairingCheck> checks = new LinkedHashMap<>();
        for (Pairing pairing : Cell.pairings(options, kind)) {
            InferenceEngine engine = Engines.create(pairing.engine(), options.engines().nativeCacheDir());
            String where = pairing.engine() + " on " + pairing.device() + " with model " + models.get(pairing.model()).name();
            CellKind.PairingCheck check;
            try {
                check = forks != null && !Engines.names().contains(pairing.engine())
                        ? PreflightFork.check(forks, options, kind, pairing, log)
                        : kind.check(engine, pairing, options.sessionDefaults().spec(pairing.source(), pairing.device()), options, log);
            } catch (BenchmarkException e) {
                throw new BenchmarkException("Preflight failed for " + where + ". " + e.getMessage(), e);
            }
            checks.put(pairing, check);
            trials.addAll(check.trials());
            if (check.inputs() != null) {
                inputs.putIfAbsent(models.get(pairing.model()).name(), check.inputs());
            }
            if (check.failedShapes().isEmpty()) {
                log.printf("[inferbench] preflight ok: %s (%s at %s and at %s)%n", where, kind.units(), shape(options, true),
                        shape(options, false));
            } else {
                log.printf("[inferbench] preflight ok, in part: %s (%s failed at %s)%n", where, kind.units(),
                        String.join(" and ", check.failedShapes()));
            }
        }
        kind.checkTogether(options, checks);
        return new Result(models, engines, List.copyOf(trials), inputs);
    }

    /** The plan's smallest or largest shape in words: {@code batch 1 x seq 64}, or {@code batch 8} for a batch-only model. */
    private static String shape(SweepOptions options, boolean smallest) {
        int seq = smallest ? Collections.min(options.plan().seqLens()) : Collections.max(options.plan().seqLens());
        int batch = smallest ? Collections.min(options.plan().batches()) : Collections.max(options.plan().batches());
        return "batch " + batch + (seq == 0 ? "" : " x seq " + seq);
    }

    /** The plan's smallest shape, {@code {seq, batch}}. */
    public static int[] smallest(SweepOptions options) {
        return new int[] {Collections.min(options.plan().seqLens()), Collections.min(options.plan().batches())};
    }

    /** The plan's largest shape, {@code {seq, batch}}. */
    public static int[] largest(SweepOptions options) {
        return new int[] {Collections.max(options.plan().seqLens()), Collections.max(options.plan().batches())};
    }
}
