package io.inferbench.engine.targets;

import io.inferbench.BenchmarkException;
import io.inferbench.api.InferenceTarget;
import io.inferbench.engine.Device;
import io.inferbench.engine.EnginePeaks;
import io.inferbench.engine.Engines;
import io.inferbench.engine.FailureKind;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.UserCode;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.List;

/**
 * One user's target class as an engine: its sessions make one instance of the class, open it, and time its calls
 * ({@link TargetSession}). The class is loaded from the spec's class-path entries ({@code -Dbench.classpath}) in a
 * layer of its own ({@link TargetLayers}): the user's code sees the JDK, the {@code io.inferbench.api} types and its
 * own class path, and none of the harness's libraries, so it runs on its own versions of them.
 */
final class TargetEngine implements InferenceEngine {
    private final String className;
    private final Path nativeCacheDir;

    /** @param nativeCacheDir where engines' libraries keep their natives, set for the user's code as for the harness's */
    TargetEngine(String className, Path nativeCacheDir) {
        this.className = className;
        this.nativeCacheDir = nativeCacheDir;
    }

    @Override
    public String name() {
        return className;
    }

    @Override
    public String engineVersion() {
        return "user code";
    }

    /**
     * Which libraries the code ran is read where it ran, in each fork at each cell's end: each cell's
     * {@code engineVersion} names the jars of {@code -Dbench.classpath} its code loaded, the harness's own copies of
     * them loaded apart, and what it borrowed from the harness ({@link LoadedLibraries}).
     */
    @Override
    public String buildInfo() {
        return "your code: " + className + ", loaded from -Dbench.classpath (config.targets has each entry's SHA-256; "
                + "each cell's engineVersion, the jars its code loaded)";
    }

    @Override
    public InferenceSession open(SessionSpec spec) {
        return TargetSession.open(this, newTarget(spec.userCode()), spec);
    }

    /**
     * An instance of the target class, loaded from {@code code}'s class path. Refuses, naming the fix: a class that is
     * not there, one that is not an {@link InferenceTarget}, one without a public no-argument constructor, one whose
     * constructor throws.
     */
    InferenceTarget newTarget(UserCode code) {
        Engines.configureForUserCode(nativeCacheDir);
        ClassLoader loader = TargetLayers.loader(code);
        Class<?> type;
        try {
            type = TargetLayers.call(loader, () -> Class.forName(className, true, loader));
        } catch (ExceptionInInitializerError e) {
            throw new TargetFailure(Frames.describe(className + "'s static initialiser", e.getCause(), loader), e.getCause());
        } catch (Exception | LinkageError e) {
            throw new BenchmarkException("Unknown target class '" + className + "': not found in -Dbench.classpath "
                    + code.classpath() + " (" + e + "). Give the folder of its compiled classes or its jar: "
                    + "-Dbench.classpath=target/classes, or check the class's full name", e);
        }
        if (!InferenceTarget.class.isAssignableFrom(type)) {
            throw new BenchmarkException("Target class " + className + " does not implement " + InferenceTarget.class.getName()
                    + " (it " + (type.getInterfaces().length == 0 ? "implements nothing" : "implements "
                    + List.of(type.getInterfaces()).stream().map(Class::getName).toList()) + "): a target implements open, "
                    + "prepare and close; docs/targets.md shows one");
        }
        try {
            Constructor<?> constructor = type.getConstructor();
            return (InferenceTarget) TargetLayers.call(loader, constructor::newInstance);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new BenchmarkException("Target class " + className + " has no public no-argument constructor: the harness "
                    + "makes one instance per fork JVM with it; add one (settings come through -Dbench.target.NAME)", e);
        } catch (InstantiationException e) {
            throw new BenchmarkException("Target class " + className + " is abstract or an interface: name a concrete class", e);
        } catch (InvocationTargetException e) {
            throw new TargetFailure(Frames.describe(className + "'s constructor", e.getCause(), loader), e.getCause());
        } catch (Exception e) {
            throw new TargetFailure(Frames.describe(className + "'s constructor", e, loader), e);
        }
    }

    /** A target has no peaks of its own: its cells are not placed on the roofline (the profile says so). */
    @Override
    public EnginePeaks calibrate(Device device, int intraOpThreads, int interOpThreads) {
        throw new BenchmarkException(className + " is a target: its own code has no FLOP peak or bandwidth the harness can "
                + "measure, so its cells are not placed on the roofline");
    }

    @Override
    public EnginePeaks calibrate(Device device, int intraOpThreads, int interOpThreads, double secondsPerMeasure) {
        return calibrate(device, intraOpThreads, interOpThreads);
    }

    /** The target's own failures are the user's code's, never a crash of inferbench. */
    @Override
    public FailureKind classify(Throwable failure) {
        return failure instanceof TargetFailure ? FailureKind.ENGINE_OR_MODEL : InferenceEngine.classifyCommon(failure);
    }
}
