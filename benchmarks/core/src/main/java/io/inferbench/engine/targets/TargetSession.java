package io.inferbench.engine.targets;

import io.inferbench.api.Call;
import io.inferbench.api.InferenceTarget;
import io.inferbench.api.Shape;
import io.inferbench.api.Stages;
import io.inferbench.api.TargetContext;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.OutputSpec;
import io.inferbench.engine.SessionFacts;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.UserCode;
import io.inferbench.engine.TokenBatch;
import io.inferbench.inputs.InputPlan;
import io.inferbench.measure.PhaseSink;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A user's target opened for one JVM: its one instance, opened once ({@link InferenceTarget#open}, untimed), and a
 * runner per thread, each preparing its own {@link Call} for a batch (untimed in a sweep; under serving, the request's
 * {@code prepare} stage) and timing its {@link Call#run} as the forward pass. The call's marks go to the runner's sink:
 * the cell's recorder in a sweep ({@link #recordPhasesInto}), a per-call map under serving ({@link Runner#lastPhasesNs}).
 *
 * <p>What the harness cannot know is the target's to do and to say: its device (the target synchronizes its own work
 * before returning), and its outputs (the call's result is consumed as an object: no float output to compare).
 */
final class TargetSession implements InferenceSession {
    /** The sessions open in this JVM: a build that fails to open beside another of the same class is told why. */
    private static final java.util.Set<TargetSession> OPEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final InferenceTarget target;
    private final String className;
    private final SessionSpec spec;
    private final ClassLoader loader;
    private final TargetStages stages;
    private final TargetRunner own;
    private final double markCostNs;
    private boolean closed;

    private TargetSession(InferenceTarget target, String className, SessionSpec spec, ClassLoader loader, TargetStages stages,
                          double markCostNs) {
        this.target = target;
        this.className = className;
        this.spec = spec;
        this.loader = loader;
        this.stages = stages;
        this.markCostNs = markCostNs;
        this.own = new TargetRunner();
    }

    /** Opens {@code target}; a target whose open throws is refused with its exception and the first frame of its code. */
    static TargetSession open(TargetEngine engine, InferenceTarget target, SessionSpec spec) {
        ClassLoader loader = TargetLayers.loader(spec.userCode());
        TargetStages stages = new TargetStages();
        boolean second = OPEN.stream().anyMatch(other -> other.className.equals(engine.name()) && other.loader != loader);
        JvmWideSettings before = second ? JvmWideSettings.now() : null;
        try {
            TargetLayers.call(loader, () -> {
                target.open(new Context(spec, stages));
                return null;
            });
        } catch (Exception | LinkageError | AssertionError e) {
            // An AssertionError is the user's code's (a library's assert on a missing native), not the JVM's.
            Exception closing = closeIn(loader, target);
            if (closing != null) {
                e.addSuppressed(closing);
            }
            throw new TargetFailure(Frames.describe(engine.name() + ".open", e, loader) + ". Nothing was measured: "
                    + (second ? "this JVM holds another build of it, open beside this one (-Dbench.ab.mode=passes), and a "
                    + "target that holds a JVM-wide resource (a port, a registry entry, a static singleton) cannot open "
                    + "twice in one JVM: run each build in fork JVMs of its own with -Dbench.ab.mode=forks"
                    : "fix the target's open (its settings are -Dbench.target.NAME=VALUE; its model, -Dbench.model)"), e);
        }
        String differ = second ? JvmWideSettings.differ(before, JvmWideSettings.now().changedSince(before)) : null;
        if (differ != null) {
            Exception closing = closeIn(loader, target);
            if (closing != null) {
                System.err.println("[inferbench] " + Frames.describe(engine.name() + ".close", closing, loader));
            }
            throw new TargetFailure(engine.name() + ": the two builds " + UserCode.SETTINGS_DIFFER + " (" + differ
                    + "), and in one JVM each would run with the other's. Nothing was measured: run each build in fork JVMs "
                    + "of its own with -Dbench.ab.mode=forks", null);
        }
        TargetSession session = new TargetSession(target, engine.name(), spec, loader, stages, stages.markCostNs());
        OPEN.add(session);
        return session;
    }

    /** Closes {@code target} in its layer; what its close threw, or null. */
    private static Exception closeIn(ClassLoader loader, InferenceTarget target) {
        try {
            TargetLayers.call(loader, () -> {
                target.close();
                return null;
            });
            return null;
        } catch (Exception e) {
            return e;
        }
    }

    /** What {@link TargetContext} gives the target: the run's device, threads, seed, model and settings. */
    private record Context(SessionSpec spec, Stages stages) implements TargetContext {
        @Override
        public String device() {
            return spec.device().toString();
        }

        @Override
        public int threads() {
            return spec.intraOpThreads();
        }

        @Override
        public long seed() {
            return spec.seed();
        }

        @Override
        public Path modelPath() {
            return spec.modelFile();
        }

        @Override
        public String property(String name, String defaultValue) {
            return spec.userCode().properties().getOrDefault(name, defaultValue);
        }
    }

    /** A target takes any batch and length: its inputs are its own to make from the {@link Shape}. */
    @Override
    public InputPlan inputs() {
        return new InputPlan(List.of(), "batch", "seq", Map.of(), -1, -1, null, null);
    }

    /** None the harness can read: a call's result is the target's own object. */
    @Override
    public List<OutputSpec> outputs() {
        return List.of();
    }

    /**
     * As every session's, with the libraries the target's code loaded from its class path in the engine's version: which
     * engine library the timed code ran is the project's jar named here, never the harness's. The device is the one the
     * run gave the target, which the target declares it used: the harness cannot check it.
     */
    @Override
    public SessionFacts facts(String engineVersion) {
        return new SessionFacts("the target's own code (" + className + ") on the device it was given, " + spec.device(),
                spec.intraOpThreads(), spec.interOpThreads(),
                engineVersion + "; " + LoadedLibraries.describe(loader, spec.userCode()),
                "user code",
                spec.device() + " (declared: the target's code chooses and synchronizes its device)",
                "the Call's result consumed as an object (never null), its identity folded into a blackhole; the target "
                + "reads its own outputs inside the call");
    }

    @Override
    public String sharing() {
        return "one target instance shared by every runner, each preparing and running calls of its own on its thread";
    }

    @Override
    public boolean takesText() {
        return true;
    }

    @Override
    public void recordPhasesInto(PhaseSink sink) {
        own.sink = sink;
    }

    @Override
    public Double phaseMarkCostNs() {
        return markCostNs;
    }

    @Override
    public void prepare(TokenBatch batch) {
        own.prepare(batch);
    }

    @Override
    public long forward() {
        return own.forward();
    }

    @Override
    public Runner newRunner() {
        TargetRunner runner = new TargetRunner();
        runner.sink = (phase, ns) -> runner.perCall.merge(phase, ns, Long::sum);
        return runner;
    }

    /** Closes the target once ({@link InferenceTarget#close}); what it throws is reported, not thrown. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        OPEN.remove(this);
        try {
            TargetLayers.call(loader, () -> {
                target.close();
                return null;
            });
        } catch (Exception e) {
            System.err.println("[inferbench] " + Frames.describe(className + ".close", e, loader));
        }
    }

    /** One thread's calls: its own {@link Call}, and where the call's marks go. Not thread-safe itself. */
    private final class TargetRunner implements Runner {
        private Call call;
        private PhaseSink sink = (phase, ns) -> { };
        /** Under serving: the last call's stages, each stage's time summed over the call. */
        private final Map<String, Long> perCall = new LinkedHashMap<>();

        @Override
        public void prepare(TokenBatch batch) {
            Shape shape = new Shape(batch.batch(), batch.seqLen(), batch.texts(), Objects.hash(spec.seed(), batch.seqLen(),
                    batch.batch()));
            try {
                call = TargetLayers.call(loader, () -> target.prepare(shape));
            } catch (Exception | LinkageError | AssertionError e) {
                throw new TargetFailure(Frames.describe(className + ".prepare(" + shape.batch() + " x " + shape.seqLen() + ")",
                        e, loader), e);
            }
            if (call == null) {
                throw new TargetFailure(className + ".prepare returned null at batch " + shape.batch() + " x seq "
                        + shape.seqLen() + ": it must return the Call to time", null);
            }
        }

        @Override
        public long forward() {
            if (call == null) {
                throw new IllegalStateException("prepare() must be called before forward()");
            }
            perCall.clear();
            Object result;
            // The target's layer is the thread's context class loader for the call (TargetLayers.call, inlined: no
            // object made inside the timed region for it).
            Thread thread = Thread.currentThread();
            ClassLoader before = thread.getContextClassLoader();
            thread.setContextClassLoader(loader);
            try {
                result = stages.recording(sink, call::run);
            } catch (Exception | LinkageError | StackOverflowError | AssertionError e) {
                // A stack overflow in the user's call is the user's failure; the JVM's stack is whole again once it unwinds.
                throw new TargetFailure(Frames.describe(className + "'s Call.run", e, loader), e);
            } finally {
                thread.setContextClassLoader(before);
            }
            if (result == null) {
                throw new TargetFailure(className + "'s Call.run returned null: a call returns its result (a response, an "
                        + "array, a string) so the harness can consume it and no work is optimised away", null);
            }
            return System.identityHashCode(result);
        }

        /** No float tensor: the call's result is the target's own object. */
        @Override
        public float[] firstOutput() {
            return new float[0];
        }

        @Override
        public Map<String, Long> lastPhasesNs() {
            return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(perCall));
        }

        @Override
        public void close() {
            call = null;
        }
    }
}
