package io.inferbench.runner;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import io.inferbench.engine.SessionFacts;
import io.inferbench.measure.ColdStart;
import io.inferbench.measure.MeasureOutcome;
import io.inferbench.measure.WarmupOutcome;
import io.inferbench.probe.MemoryUse;

import java.util.Map;

/**
 * Everything one fork measured for one cell, written by the fork JVM as a JSON file and merged by the sweep.
 * Histograms are {@link HistogramCodec} strings of nanoseconds. Its groups are written flat in the file
 * ({@link JsonUnwrapped}).
 *
 * @param round         the fork round, 1-based
 * @param positionInJvm the cell's place in its JVM's order, 0-based: 0 means this cell's first pass was the JVM's
 * @param coldStart     the cold start of the JVM this fork ran in: engine load, session creation, and its first pass,
 *                      which was at the shape of the cell at position 0
 * @param firstPassMs   this cell's first pass at its shape in this JVM, timed on its own and in no histogram: for the
 *                      cell at position 0 it is the JVM's cold first inference, for the others the cost of a new shape
 *                      in a warm process (new allocations, kernel selection)
 * @param warmup        how the warm-up went and why it ended
 * @param measurement   how the measurement went and why it stopped
 * @param memory        the memory the cell used, from its start to the end of its measurement; null where not read
 * @param histograms    the warm-up's, the measurement's, and those of measurements set aside
 * @param facts         how the session ran, as the engine reported it
 * @param phases        what the unit's own phases recorded; {@link Phases#NONE} for a kind whose unit has none (a
 *                      forward pass)
 */
public record ForkMeasurement(String cellId, long pid, int round, int positionInJvm, ColdStart coldStart,
                              double firstPassMs, WarmupOutcome warmup, MeasureOutcome measurement, MemoryUse memory,
                              @JsonUnwrapped Histograms histograms, @JsonUnwrapped SessionFacts facts,
                              @JsonUnwrapped Phases phases) {

    /** No group is null: an absent one reads back from the file as every field null, so it is that from the start. */
    public ForkMeasurement {
        phases = phases == null ? Phases.NONE : phases;
    }

    /**
     * The fork's passes ({@link HistogramCodec} strings of nanoseconds).
     *
     * @param setAsideHistogramNs the passes of measurements set aside as disturbed ({@link io.inferbench.measure.SetAside}),
     *                            kept apart from the results; null when none was
     */
    public record Histograms(String warmupHistogramNs, String measuredHistogramNs, String setAsideHistogramNs) {
    }

    /**
     * What the unit's own phases recorded.
     *
     * @param phaseHistogramsNs each phase of the measured units, by name ({@link KindSession.Unit#phases})
     * @param output            what the kind keeps of the cell beside its numbers ({@link KindSession.Unit#output}); null
     *                          for none
     * @param phaseMarkCostNs   what one of the unit's own phase marks cost in this JVM
     *                          ({@link KindSession.Unit#phaseMarkCostNs}); null where it marks none
     */
    public record Phases(Map<String, String> phaseHistogramsNs, JsonNode output, Double phaseMarkCostNs) {
        public static final Phases NONE = new Phases(null, null, null);
    }
}
