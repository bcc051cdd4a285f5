package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.inferbench.analysis.SeriesKey;

import java.util.List;

/**
 * One fork JVM of the sweep: what it ran and what it cost to start.
 *
 * @param cells       the cells it ran, in its order
 * @param wallSeconds from launch to exit
 * @param exitCode    0 when every cell was attempted, 2 when the session could not be opened, anything else a crash
 * @param error       why it ended early, when it did: a crash, or {@value #STOPPED_AS_SLOW} and why
 * @param job         what it measured and why it was started: {@code round}, {@code departed} or {@code doubted}
 *                    forks, and for the rest of another JVM's cells {@code , restart after a crash} or {@code , rest
 *                    of a JVM stopped as slow}; null in runs before it was recorded
 */
@JsonPropertyOrder({"round", "target", "pid", "cells", "start", "wallSeconds", "exitCode", "error", "job"})
public record ForkJvm(int round, @JsonUnwrapped SeriesKey.EngineModel target, long pid, List<String> cells,
                      @JsonUnwrapped Start start, double wallSeconds, int exitCode, String error, String job)
        implements SeriesKey.EngineModel.Named {

    /** A group is never null (an absent one reads back as every field null, so it is written as one). */
    public ForkJvm {
        start = start == null ? new Start(null, null, null, null, null) : start;
    }

    /**
     * What it cost to start: the JVM, the engine, the session, and its first pass.
     *
     * @param jvmStartMs       from the sweep launching it to its {@code main} starting (the machine's wall clock on
     *                         both sides); null when it never reached {@code main}
     * @param engineLoadMs     loading the engine in it; null when it never opened a session
     * @param sessionCreateMs  creating its session
     * @param sessionRssMb     what creating its session added to the process's resident set, MiB (the model's weights,
     *                         the engine's arenas); null where unknown or in runs before schema 10
     * @param firstInferenceMs its first pass, at the shape of its first cell
     */
    public record Start(Double jvmStartMs, Double engineLoadMs, Double sessionCreateMs, Double sessionRssMb,
                        Double firstInferenceMs) {
    }

    /** How {@code error} begins for a JVM the sweep stopped because its cells ran slower than in earlier JVMs. */
    public static final String STOPPED_AS_SLOW = "stopped by the sweep as slow: ";

    /** The sweep stopped it as slow: not a crash; its remaining cells ran in a fresh JVM. */
    public boolean stoppedAsSlow() {
        return error != null && error.startsWith(STOPPED_AS_SLOW);
    }

    // Each group's fields, read through the group, as before the groups.

    public Double jvmStartMs() {
        return start.jvmStartMs();
    }

    public Double engineLoadMs() {
        return start.engineLoadMs();
    }

    public Double sessionCreateMs() {
        return start.sessionCreateMs();
    }

    public Double sessionRssMb() {
        return start.sessionRssMb();
    }

    public Double firstInferenceMs() {
        return start.firstInferenceMs();
    }
}
