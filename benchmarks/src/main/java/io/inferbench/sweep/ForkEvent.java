package io.inferbench.sweep;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.inferbench.results.Json;

/**
 * What a fork JVM tells the sweep while it runs, one line of its standard output each: {@value #PREFIX} and the event
 * as one-line JSON. Everything else the fork prints (JMH's own output, the engines' logs) is only copied to the run's
 * {@code console.log}. The events carry what the progress line shows; what is kept is in each cell's measurement
 * file, written before its {@code done} event.
 *
 * @param type    {@code ready} (the session is open), {@code start} and {@code done} of a cell, {@code failed} (a cell
 *                failed; the fork goes on to the next one), {@code openFailed} (no session: no cell runs)
 * @param epochMs with {@code ready}: when the fork's {@code main} started, in the machine's wall clock, so that the sweep
 *                can tell JVM start-up from engine load and session creation
 * @param cpuPercent   with {@code done}: the process's CPU over the measurement, per engine thread ({@link
 *                     io.inferbench.measure.CpuUse#utilisationPercent}); null where unknown
 * @param otherPercent with {@code done}: other processes' share of the machine meanwhile; null where unknown
 * @param sessionRssMb with {@code ready}: what session creation added to the process's resident set, MiB; null where
 *                     unknown
 */
public record ForkEvent(String type, String cellId, Long epochMs, Double engineLoadMs, Double sessionCreateMs,
                        Long warmupPasses, String warmupEnd, Long passes, String stop, Double precisionPercent,
                        Double p50Ms, Double p99Ms, Double cpuPercent, Double otherPercent, Double sessionRssMb, String error) {
    public static final String PREFIX = "@@inferbench-fork ";

    public static final String READY = "ready";
    public static final String START = "start";
    public static final String DONE = "done";
    public static final String FAILED = "failed";
    public static final String OPEN_FAILED = "openFailed";

    private static final ObjectWriter WRITER = Json.mapper().writer().without(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectReader READER = Json.mapper().readerFor(ForkEvent.class);

    public static ForkEvent ready(long mainEpochMs, double engineLoadMs, double sessionCreateMs, Double sessionRssMb) {
        return new ForkEvent(READY, null, mainEpochMs, engineLoadMs, sessionCreateMs, null, null, null, null, null, null, null, null,
                null, sessionRssMb, null);
    }

    public static ForkEvent start(String cellId) {
        return new ForkEvent(START, cellId, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    public static ForkEvent done(String cellId, long warmupPasses, String warmupEnd, long passes, String stop,
                                 Double precisionPercent, double p50Ms, double p99Ms, Double cpuPercent, Double otherPercent) {
        return new ForkEvent(DONE, cellId, null, null, null, warmupPasses, warmupEnd, passes, stop, precisionPercent, p50Ms,
                p99Ms, cpuPercent, otherPercent, null, null);
    }

    public static ForkEvent failed(String cellId, String error) {
        return new ForkEvent(FAILED, cellId, null, null, null, null, null, null, null, null, null, null, null, null, null, error);
    }

    public static ForkEvent openFailed(String error) {
        return new ForkEvent(OPEN_FAILED, null, null, null, null, null, null, null, null, null, null, null, null, null, null, error);
    }

    /**
     * The line the fork prints. It starts with a line break: JMH may have printed part of a line (its "Iteration 1: "
     * before the score) when the benchmark's set-up or tear-down reports an event, and the event must start a line.
     */
    public String line() {
        try {
            return System.lineSeparator() + PREFIX + WRITER.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a fork event could not be written as JSON: " + e, e);
        }
    }

    /** The event on this line, or null when the line is ordinary output. */
    public static ForkEvent parse(String line) {
        int at = line.indexOf(PREFIX);
        if (at < 0) {
            return null;
        }
        try {
            return READER.readValue(line.substring(at + PREFIX.length()));
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
