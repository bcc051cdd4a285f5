package io.inferbench.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.inferbench.probe.EnergyUse;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The groups that hold what may be absent together ({@code EnergyUse.Figures}, {@code ResourcesResult.GpuFigures},
 * {@code AblationResult.Difference}, {@code ServingResult.Studies}) are written flat, in their fields' places, and read
 * back into equal records: each against its JSON written out by hand here, keys in order. The committed examples hold
 * none of them with figures ({@link ExamplesTest} covers the groups they do hold).
 */
class GroupedJsonTest {

    /** {@code value} as run.json writes it, against {@code expected} written out by hand, then read back. */
    private static <T> void writtenFlatAndReadBack(T value, Class<T> type, String expected) throws JsonProcessingException {
        String written = Json.mapper().writeValueAsString(value);
        assertEquals(Json.mapper().writeValueAsString(Json.mapper().readTree(expected)), written);
        assertEquals(value, Json.mapper().readValue(written, type));
    }

    @Test
    void energyFiguresAreWrittenFlatBeforeTheirSource() throws JsonProcessingException {
        writtenFlatAndReadBack(new EnergyUse(new EnergyUse.Figures(12.5, 25.0, 0.125, 62.5), "RAPL", null), EnergyUse.class,
                "{\"joules\": 12.5, \"meanWatts\": 25.0, \"joulesPerPass\": 0.125, \"joulesPer1000Samples\": 62.5, "
                        + "\"source\": \"RAPL\"}");
        EnergyUse none = new EnergyUse(EnergyUse.Figures.NONE, "RAPL", "no RAPL package domain");
        writtenFlatAndReadBack(none, EnergyUse.class, "{\"source\": \"RAPL\", \"unavailable\": \"no RAPL package domain\"}");
        assertEquals(null, none.joules(), "an absent figure reads as null through the record, as before the group");
    }

    @Test
    void gpuFiguresAreWrittenFlatBetweenTheSamplesAndWhyNot() throws JsonProcessingException {
        writtenFlatAndReadBack(new ResourcesResult.GpuResources(20, new ResourcesResult.GpuFigures(55.0, 900.0, 1400.0,
                81559.0, 150.0, 250.0, 0.3, 2.5, 1755.0, List.of("SW power cap")), null), ResourcesResult.GpuResources.class,
                "{\"samples\": 20, \"utilisationPercent\": 55.0, \"processMemoryMb\": 900.0, \"deviceMemoryPeakMb\": 1400.0, "
                        + "\"deviceMemoryTotalMb\": 81559.0, \"meanWatts\": 150.0, \"maxWatts\": 250.0, \"joulesPerPass\": 0.3, "
                        + "\"joulesPer1000Samples\": 2.5, \"smClockMinMhz\": 1755.0, \"throttleReasons\": [\"SW power cap\"]}");
        writtenFlatAndReadBack(ResourcesResult.GpuResources.unavailable("nvidia-smi could not be started"),
                ResourcesResult.GpuResources.class, "{\"samples\": 0, \"unavailable\": \"nvidia-smi could not be started\"}");
    }

    @Test
    void anAblationCostsDifferenceIsWrittenFlatAfterItsPart() throws JsonProcessingException {
        writtenFlatAndReadBack(new AblationResult.Cost("the engine", "no-op engine", new AblationResult.Difference(2.0, 1.5,
                2.5, true, 1.75, 3.0), List.of("forward"), 1.9, 0.05, true, "agree"), AblationResult.Cost.class,
                "{\"removed\": \"the engine\", \"part\": \"no-op engine\", \"meanMs\": 2.0, \"meanLowMs\": 1.5, "
                        + "\"meanHighMs\": 2.5, \"resolved\": true, \"p50Ms\": 1.75, \"p99Ms\": 3.0, \"stages\": [\"forward\"], "
                        + "\"stageMeanMs\": 1.9, \"fullDriftMs\": 0.05, \"agree\": true, \"reading\": \"agree\"}");
        writtenFlatAndReadBack(new AblationResult.Cost("tokenizing", "fixed tokens", AblationResult.Difference.NONE,
                List.of("tokenize"), null, 0.05, false, "the part completed no request: 3 failed"), AblationResult.Cost.class,
                "{\"removed\": \"tokenizing\", \"part\": \"fixed tokens\", \"resolved\": false, \"stages\": [\"tokenize\"], "
                        + "\"fullDriftMs\": 0.05, \"agree\": false, \"reading\": \"the part completed no request: 3 failed\"}");
    }

    @Test
    void servingsStudiesAreWrittenFlatAfterTheKnee() throws JsonProcessingException {
        ServingResult served = new ServingResult(List.of(), List.of(), List.of(), 0.01, List.of(), null, List.of());
        writtenFlatAndReadBack(served, ServingResult.class, "{\"conditions\": [], \"points\": [], \"slaBoundary\": [], "
                + "\"slaMaxErrorRate\": 0.01, \"closedLoopKnee\": [], \"ablation\": []}");
        assertEquals(List.of(), served.ablation());
        assertEquals(null, served.soak(), "no soak was asked for");
    }
}
