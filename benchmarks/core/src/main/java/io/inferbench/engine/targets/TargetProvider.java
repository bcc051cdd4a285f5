package io.inferbench.engine.targets;

import io.inferbench.engine.Capabilities;
import io.inferbench.engine.Device;
import io.inferbench.engine.EngineProvider;
import io.inferbench.engine.GpuReadiness;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.model.ModelFormat;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A user's own code as engines ({@code -Dbench.target}): not a default engine and not a name {@code -Dbench.backend}
 * takes, but the maker of one engine per target class, each named by its class and run as a series like an engine
 * ({@link TargetEngine}). Its classes are loaded in each JVM from the class-path entries of the session's spec.
 */
public final class TargetProvider implements EngineProvider {
    /**
     * What a target can do: take any model the run names (or none: it loads what it needs), on any device, and run a
     * forward pass. It generates nothing (generation is the harness's own loop over a decoder), and has no peak of its
     * own to calibrate and no op profile, so the roofline has nothing to place its cells against.
     */
    static final Capabilities CAPABILITIES = new Capabilities(EnumSet.allOf(ModelFormat.class), Set.of(),
            Set.of(Device.Kind.CPU, Device.Kind.CUDA), false, false, null, false);
    private static final Pattern CLASS_NAME = Pattern.compile("(\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*\\.)+"
            + "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*(\\$\\p{javaJavaIdentifierPart}+)*");

    private final String className;

    public TargetProvider() {
        this(null);
    }

    private TargetProvider(String className) {
        this.className = className;
    }

    @Override
    public String name() {
        return className == null ? "target" : className;
    }

    @Override
    public String description() {
        return "your own inference code, -Dbench.target";
    }

    @Override
    public Capabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public boolean listed() {
        return false;
    }

    /** A provider for any fully qualified class name: whether it is a target is the preflight's to find, naming the fix. */
    @Override
    public Optional<EngineProvider> resolve(String name) {
        return className == null && CLASS_NAME.matcher(name).matches() ? Optional.of(new TargetProvider(name)) : Optional.empty();
    }

    @Override
    public InferenceEngine create(Path nativeCacheDir) {
        if (className == null) {
            throw new IllegalStateException("the target family makes an engine per class: resolve a class name first");
        }
        return new TargetEngine(className, nativeCacheDir);
    }

    /** A target's device is its own to use: nothing to check here. */
    @Override
    public List<GpuReadiness> gpuReadiness(Path nativeCacheDir) {
        return List.of();
    }
}
