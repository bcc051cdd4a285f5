package io.inferbench.runner;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.Pairing;
import io.inferbench.engine.Pairings;
import io.inferbench.engine.SessionSpec;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.model.ModelSource;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * What kind of cell a run measures, as a parameter of the one fork runner ({@link ForkRunner}), the way a JMH mode is a
 * parameter of JMH's one runner: a forward pass at each shape ({@code io.inferbench.sweep.ForwardKind}), or a whole
 * generation with its phases ({@code io.inferbench.generate.GenerationKind}). Everything else (the plan, the fork JVMs
 * and JMH in them, the warm-up and stop rules, the job queue and its rules, the set-aside of a disturbed measurement, the
 * durability of what was measured) is the runner's and the same for every kind.
 *
 * <p>A kind says:
 * <ul>
 *   <li>which engines run which models for it ({@link #purpose});</li>
 *   <li>what must hold of a model and of each engine, device and model before anything is measured ({@link #checkModel},
 *       {@link #check}, {@link #checkTogether}), in the run's own JVM;</li>
 *   <li>the rules its cells are measured by ({@link #policy});</li>
 *   <li>how its session opens in a fork JVM and what one timed unit is ({@link #open}): the unit's own time is what the
 *       rules see, and a unit with phases records each in its own histogram.</li>
 * </ul>
 *
 * <p>The kind travels to every fork JVM inside its {@link ForkPlan}, as JSON named by its class: its record components are
 * its parameters (a generation's new tokens), and nothing else of it is serialized.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.CLASS, property = "@kind")
public interface CellKind {
    /** What run.json's config, the plan line and the progress call it: {@code forward}, {@code generation}. */
    String name();

    /** What run.json's {@code config.cellKind} records: null for the forward pass, as every run before the kinds did. */
    default String recordedName() {
        return name();
    }

    /** What the console calls a run of this kind's cells: {@code sweep}, {@code generation}. */
    default String runName() {
        return name();
    }

    /** What the timed units are called, plural, for the console: {@code passes}, {@code generations}. */
    String units();

    /** The kind's own parameters in words, for the plan line; null when it has none worth a word (a forward pass). */
    default String describe() {
        return null;
    }

    /** Which engines open which models for this kind ({@link Pairings}). */
    Pairings.Purpose purpose();

    /** The rules this kind's cells are measured by, from the ones asked for: what the run records and applies. */
    default MeasurePolicy policy(MeasurePolicy asked) {
        return asked;
    }

    /** Refuses a model this kind cannot measure, with why and the fix, before any engine opens it. */
    default void checkModel(ModelSource source, SweepOptions options) {
    }

    /**
     * Opens {@code pairing} as the cells will, in the run's JVM, and runs units at the smallest and largest shapes of the
     * plan: a shape that cannot run fails here, in seconds, not an hour in.
     *
     * @return what the check found: each shape's probe (for the estimate of the time left), the model's inputs
     */
    PairingCheck check(InferenceEngine engine, Pairing pairing, SessionSpec spec, SweepOptions options, PrintStream log);

    /** What must hold across pairings (the outputs of a reference and its candidates), once each has been checked. */
    default void checkTogether(SweepOptions options, Map<Pairing, PairingCheck> checks) {
    }

    /**
     * Whether a fork JVM's sessions of this kind share one thread pool ({@link InferenceEngine#shareThreadPool}), asked
     * of the engine before anything else in the fork: a kind whose session holds two models' does.
     */
    default boolean sharesThreadPool() {
        return false;
    }

    /**
     * Whether a measurement that other processes disturbed is set aside and measured again
     * ({@link io.inferbench.measure.CellLoop#MAX_REMEASURES}); a kind whose unit holds the two sides it compares, whom
     * a disturbance hits alike, keeps the first.
     */
    default boolean remeasuresDisturbed() {
        return true;
    }

    /** Opens this kind's session in a fork JVM, once for all the JVM's cells. */
    KindSession open(InferenceEngine engine, SessionSpec spec);

    /**
     * As {@link #open(InferenceEngine, SessionSpec)}, in the fork JVM of {@code round}: a kind that draws something per
     * fork (the order of A's and B's passes) draws it from the run's seed and the round, so that each fork draws anew.
     */
    default KindSession open(InferenceEngine engine, SessionSpec spec, int round) {
        return open(engine, spec);
    }

    /**
     * What the preflight learnt of one pairing.
     *
     * @param trials  the units timed at the plan's smallest and largest shapes
     * @param inputs  how the model's inputs are filled, or null where the kind has no such plan
     * @param outputs the model's outputs as the engine declares them (for {@link #checkTogether}), or empty
     */
    record PairingCheck(List<Preflight.TrialPass> trials, io.inferbench.inputs.InputPlan inputs,
                        List<io.inferbench.engine.OutputSpec> outputs, List<String> failedShapes) {
        public PairingCheck {
            trials = List.copyOf(trials);
            outputs = List.copyOf(outputs);
            failedShapes = List.copyOf(failedShapes);
        }

        /** Every shape tried ran. */
        public PairingCheck(List<Preflight.TrialPass> trials, io.inferbench.inputs.InputPlan inputs,
                            List<io.inferbench.engine.OutputSpec> outputs) {
            this(trials, inputs, outputs, List.of());
        }
    }
}
