package io.inferbench.engine;

import io.inferbench.BenchmarkException;
import io.inferbench.model.ModelSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;

/**
 * The engines this build has, found through {@link ServiceLoader} ({@link EngineProvider}), in the order of their lines
 * in {@code META-INF/services/io.inferbench.engine.EngineProvider}: that order is the default {@code -Dbench.backend}.
 * Everything that names, checks or makes an engine goes through here; nothing outside an engine's package names one.
 */
public final class Engines {
    private static final List<EngineProvider> PROVIDERS = load();

    private Engines() {
    }

    private static List<EngineProvider> load() {
        List<EngineProvider> providers = new ArrayList<>();
        ServiceLoader.load(EngineProvider.class, Engines.class.getClassLoader()).forEach(providers::add);
        if (providers.isEmpty()) {
            throw new IllegalStateException("no engine is registered in META-INF/services/" + EngineProvider.class.getName()
                    + ": the build is incomplete");
        }
        return List.copyOf(providers);
    }

    /** Every listed engine's name, in registry order: the default engines. */
    public static List<String> names() {
        return PROVIDERS.stream().filter(EngineProvider::listed).map(EngineProvider::name).toList();
    }

    /** Every listed engine, for the settings' documentation: each one's name in backticks and its description. */
    public static String describe() {
        List<String> each = PROVIDERS.stream().filter(EngineProvider::listed).map(p -> "`" + p.name() + "` (" + p.description()
                + ")").toList();
        if (each.isEmpty()) {
            return "none on this class path (a target run alone needs none; add an engine module for a model)";
        }
        return each.size() == 1 ? each.get(0)
                : String.join(", ", each.subList(0, each.size() - 1)) + " and " + each.get(each.size() - 1);
    }

    /** Every registered engine's provider, in registry order. */
    public static List<EngineProvider> providers() {
        return PROVIDERS;
    }

    /** Refuses a name that is not a listed engine ({@code -Dbench.backend}), listing the ones that are. */
    public static void checkName(String name) {
        if (!names().contains(name)) {
            throw new BenchmarkException("Unknown backend '" + name + "': expected one of " + names()
                    + " (your own code runs with -Dbench.target, docs/targets.md)");
        }
    }

    /** The engine called {@code name}: a listed one, or one a provider makes at run time (a user's target). */
    public static EngineProvider provider(String name) {
        return PROVIDERS.stream().filter(p -> p.listed() && p.name().equals(name)).findFirst()
                .or(() -> PROVIDERS.stream().map(p -> p.resolve(name)).flatMap(java.util.Optional::stream).findFirst())
                .orElseThrow(() -> new BenchmarkException("Unknown backend '" + name + "': expected one of " + names()));
    }

    public static Capabilities capabilities(String name) {
        return provider(name).capabilities();
    }

    /** Whether engine {@code name} opens {@code source} for a forward pass. */
    public static boolean canLoad(String name, ModelSource source) {
        return whyNot(name, source) == null;
    }

    /** Why engine {@code name} does not open {@code source} for a forward pass, or null when it does. */
    public static String whyNot(String name, ModelSource source) {
        return capabilities(name).whyNot(name, source);
    }

    /** The first engine, in registry order, that profiles ops and loads {@code source}; empty when none does. */
    public static java.util.Optional<String> opProfiler(ModelSource source) {
        return PROVIDERS.stream().filter(p -> p.capabilities().opProfile() && canLoad(p.name(), source))
                .map(EngineProvider::name).findFirst();
    }

    /** Every engine's process settings for a user's code in this JVM ({@link EngineProvider#configureForUserCode}). */
    public static void configureForUserCode(Path nativeCacheDir) {
        PROVIDERS.forEach(p -> p.configureForUserCode(nativeCacheDir));
    }

    /** Every engine's own properties ({@link EngineProvider#settings()}), in registry order. */
    public static List<EngineSetting> settings() {
        return PROVIDERS.stream().flatMap(p -> p.settings().stream()).toList();
    }

    /** What every engine adds to the measuring JVMs' environment ({@link EngineProvider#measuringEnvironment}). */
    public static Map<String, String> measuringEnvironment(Properties p, Map<String, String> inherited) {
        Map<String, String> added = new LinkedHashMap<>();
        PROVIDERS.forEach(provider -> added.putAll(provider.measuringEnvironment(p, inherited)));
        return added;
    }

    /** The variables that steer some engine, in registry order ({@link EngineProvider#environmentVariables()}). */
    public static List<String> environmentVariables() {
        return PROVIDERS.stream().flatMap(p -> p.environmentVariables().stream()).distinct().toList();
    }

    /**
     * The engine called {@code name}.
     *
     * @param nativeCacheDir where an engine that extracts its natives puts them ({@code -Dbench.nativeCache})
     */
    public static InferenceEngine create(String name, Path nativeCacheDir) {
        return provider(name).create(nativeCacheDir);
    }

    /**
     * What a failure inside a cell was, asking {@code engine} about each throwable of the cause chain in turn: the first it
     * recognises decides. Null when none is recognised: a crash of inferbench itself.
     */
    public static FailureKind classify(InferenceEngine engine, Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            FailureKind kind = engine == null ? InferenceEngine.classifyCommon(t) : engine.classify(t);
            if (kind != null) {
                return kind;
            }
        }
        return null;
    }
}
