package io.inferbench.generate;

import io.inferbench.BenchmarkException;
import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.Engines;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.measure.NanoClock;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.model.ResolvedModel;
import io.inferbench.results.RunStore;
import io.inferbench.sweep.SweepOptions;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a generation run can get wrong, checked before its first measured generation: the results folder, every
 * model is a decoder that resolves and opens on every engine and device, its cache pairs, and one short generation at the
 * largest prompt and batch runs.
 */
public final class GenerationPreflight {
    private GenerationPreflight() {
    }

    /** The models, their files, and the engines' build descriptions. */
    public record Result(Map<String, ModelSource> sources, Map<String, ResolvedModel> models, Map<String, String> engines) {
        public Map<String, Path> files() {
            Map<String, Path> files = new LinkedHashMap<>();
            models.forEach((name, m) -> files.put(name, m.path()));
            return files;
        }
    }

    public static Result check(SweepOptions sweep, GenerationOptions options, PrintStream console) {
        RunStore.checkWritable(sweep.output().resultsDir());
        ModelResolver resolver = new ModelResolver(sweep.engines().cacheDir(), sweep.rules().seed());
        Map<String, ModelSource> sources = new LinkedHashMap<>();
        Map<String, ResolvedModel> models = new LinkedHashMap<>();
        int longestPrompt = sweep.plan().seqLens().stream().mapToInt(Integer::intValue).max().orElseThrow();
        int largestBatch = sweep.plan().batches().stream().mapToInt(Integer::intValue).max().orElseThrow();
        for (String name : sweep.plan().models()) {
            ModelSource source = ModelSource.parse(name);
            if (source instanceof ModelSource.Builtin) {
                throw new BenchmarkException(name + " is an encoder: generation (-Dbench.generate) needs a decoder with a "
                        + "key/value cache: tiny-decoder, base-decoder, or an ONNX export with past/present inputs and outputs");
            }
            if (source instanceof ModelSource.BuiltinDecoder decoder
                    && longestPrompt + options.newTokens() > decoder.preset().config().maxPositions()) {
                throw new BenchmarkException(name + " has " + decoder.preset().config().maxPositions() + " positions; the "
                        + "longest prompt (" + longestPrompt + ") plus " + options.newTokens() + " new tokens does not fit: "
                        + "lower -Dbench.seq or -Dbench.generate");
            }
            sources.put(name, source);
            models.put(name, resolver.resolve(source));
        }
        Map<String, String> engines = new LinkedHashMap<>();
        for (String backendName : sweep.plan().backends()) {
            InferenceEngine backend = Engines.create(backendName, sweep.engines().nativeCacheDir());
            engines.put(backendName, backend.buildInfo());
            for (String device : sweep.plan().devices()) {
                for (String model : sweep.plan().models()) {
                    if (!Engines.canLoad(backendName, sources.get(model))) {
                        console.println("[inferbench] generate: " + model + " is not run on " + backendName + ": "
                                + Engines.whyNot(backendName, sources.get(model)));
                        continue;
                    }
                    try (DecoderSession decoder = backend.openDecoder(GenerationRunner.spec(sweep, sources.get(model),
                            models.get(model).path(), device), options.kvPairs())) {
                        Generation.run(decoder, GenerationRunner.prompt(sweep.rules().seed(), longestPrompt, largestBatch),
                                largestBatch, longestPrompt, Math.min(2, options.newTokens()), NanoClock.SYSTEM);
                        console.println("[inferbench] generate: " + model + " on " + backendName + " " + device + ": "
                                + decoder.layout().describe());
                    }
                }
            }
        }
        return new Result(sources, models, engines);
    }

    /** The plan line. */
    public static String planLine(SweepOptions sweep, GenerationOptions options) {
        List<String> p = List.of(
                "engines " + String.join(",", sweep.plan().backends()),
                "devices " + String.join(",", sweep.plan().devices()),
                "models " + String.join(",", sweep.plan().models()),
                "prompts " + sweep.plan().seqLens(),
                "batches " + sweep.plan().batches(),
                options.newTokens() + " new tokens (1 prefill + " + (options.newTokens() - 1) + " decode steps)",
                sweep.rules().forks() + " round(s)",
                sweep.engines().intraOpThreads() + " threads");
        return "[inferbench] generation: " + String.join("; ", p);
    }
}
