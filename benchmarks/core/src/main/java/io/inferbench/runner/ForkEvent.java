package io.inferbench.runner;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.inferbench.measure.MeasureEnd;
import io.inferbench.measure.WarmupEnd;
import io.inferbench.results.Json;

/**
 * What a fork JVM tells the sweep while it runs, one line of its standard output each: {@value #PREFIX} and the event
 * as one-line JSON, its kind in {@code type}. Everything else the fork prints (JMH's own output, the engines' logs) is
 * only copied to the run's {@code console.log}. The events carry what the progress line shows and what the sweep decides
 * on while the fork runs (a JVM gone slow, {@link SlowJvm}); what is kept is in each cell's measurement file, written
 * before its {@link CellDone}.
 *
 * <p>A reader handles every kind through a {@link Handler}: one method per kind, so that a new kind does not compile
 * until every reader says what it does with it (the exhaustive {@code switch} over a sealed type that Java 17 has only
 * as a preview).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = ForkEvent.Ready.class, name = "ready"),
        @JsonSubTypes.Type(value = ForkEvent.OpenFailed.class, name = "openFailed"),
        @JsonSubTypes.Type(value = ForkEvent.CellStarted.class, name = "start"),
        @JsonSubTypes.Type(value = ForkEvent.CellDone.class, name = "done"),
        @JsonSubTypes.Type(value = ForkEvent.CellFailed.class, name = "failed")})
public sealed interface ForkEvent {
    String PREFIX = "@@inferbench-fork ";
    /** The heartbeat a fork's watchdog prints while the JVM lives ({@link CallWatchdog}): read, never logged. */
    String ALIVE = "@@inferbench-alive";

    /** What a reader does with each kind of event. */
    interface Handler<R> {
        R ready(Ready event);

        R openFailed(OpenFailed event);

        R cellStarted(CellStarted event);

        R cellDone(CellDone event);

        R cellFailed(CellFailed event);
    }

    <R> R handle(Handler<R> handler);

    /**
     * The session is open; the cells follow.
     *
     * @param mainEpochMs when the fork's {@code main} started, in the machine's wall clock, so that the sweep can tell
     *                    JVM start-up from engine load and session creation
     * @param sessionRssMb what session creation added to the process's resident set, MiB; null where unknown
     */
    record Ready(long mainEpochMs, double engineLoadMs, double sessionCreateMs, Double sessionRssMb) implements ForkEvent {
        @Override
        public <R> R handle(Handler<R> handler) {
            return handler.ready(this);
        }
    }

    /** No session could be opened: no cell runs, and every cell's folder holds the error. */
    record OpenFailed(String error) implements ForkEvent {
        @Override
        public <R> R handle(Handler<R> handler) {
            return handler.openFailed(this);
        }
    }

    /** A cell began: its inputs are being prepared. */
    record CellStarted(String cellId) implements ForkEvent {
        @Override
        public <R> R handle(Handler<R> handler) {
            return handler.cellStarted(this);
        }
    }

    /**
     * A cell ended with its measurement written to its folder.
     *
     * @param precisionPercent the p50 interval's half-width in percent, null with a fixed count
     * @param cpuPercent       the process's CPU over the measurement, per engine thread ({@link
     *                         io.inferbench.probe.CpuUse#utilisationPercent}); null where unknown
     * @param otherPercent     other processes' share of the machine meanwhile; null where unknown
     * @param phasesP50Ms      the p50 of each of the unit's summary phases ({@link KindSession.Unit#summaryPhases}), by
     *                         name; null for a unit without phases
     */
    record CellDone(String cellId, long warmupPasses, WarmupEnd warmupEnd, long passes, MeasureEnd stop,
                    Double precisionPercent, double p50Ms, double p99Ms, Double cpuPercent, Double otherPercent,
                    java.util.Map<String, Double> phasesP50Ms)
            implements ForkEvent {
        @Override
        public <R> R handle(Handler<R> handler) {
            return handler.cellDone(this);
        }
    }

    /** A cell failed, its error written to its folder; the fork goes on to its next cell. */
    record CellFailed(String cellId, String error) implements ForkEvent {
        @Override
        public <R> R handle(Handler<R> handler) {
            return handler.cellFailed(this);
        }
    }

    /**
     * The line the fork prints. It starts with a line break: JMH may have printed part of a line (its "Iteration 1: "
     * before the score) when the benchmark's set-up or tear-down reports an event, and the event must start a line.
     */
    default String line() {
        try {
            return System.lineSeparator() + PREFIX + Wire.WRITER.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a fork event could not be written as JSON: " + e, e);
        }
    }

    /** The event on this line, or null when the line is ordinary output. */
    static ForkEvent parse(String line) {
        int at = line.indexOf(PREFIX);
        if (at < 0) {
            return null;
        }
        try {
            return Wire.READER.readValue(line.substring(at + PREFIX.length()));
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** The JSON of an event line: one line, its kind named. */
    final class Wire {
        private static final ObjectWriter WRITER = Json.mapper().writerFor(ForkEvent.class)
                .without(SerializationFeature.INDENT_OUTPUT);
        private static final ObjectReader READER = Json.mapper().readerFor(ForkEvent.class);

        private Wire() {
        }
    }
}
