package io.inferbench.results;

import io.inferbench.analysis.SeriesKey;
import io.inferbench.measure.LatencySummary;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A load point and an SLA boundary, their fields grouped by concern in the code, are written to {@code run.json} flat
 * and in the order they always were, and read back whole: the expected files were written by the records before they
 * were grouped (every field set, each to a value of its own).
 */
class ServingRecordsJsonTest {
    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");

    static LoadPointResult point() {
        LatencySummary l1 = new LatencySummary(100, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 0.5, 2.0, 0.7);
        LatencySummary l2 = new LatencySummary(90, 1.1, 2.1, 3.1, 4.1, 5.1, 6.1, 0.1, 1.9, 0.6);
        LoadPointResult.Prediction predicted = new LoadPointResult.Prediction(1.25, 3.75, 2.5, 4000, 12.5, "note")
                .withServedPasses(1.1, 1.3, 3.9, 4.2);
        return new LoadPointResult(new SeriesKey("onnxruntime", "cpu", "tiny", 64),
                new LoadPointResult.Load("batching", "batch<=4 wait 2 ms", 1, 50.0, 2.0, 4, "sla-step", 5.0),
                new LoadPointResult.Requests(250, 249, 1, "boom", 3, 1),
                new LoadPointResult.Pacing(true, false, "why", true, 50.5, 50.1, false, 49.5),
                new LoadPointResult.Latency(l1, l2, Map.of("forward", l2), new TreeMap<>(Map.of(1, 10L, 2, 20L)), 1.67),
                predicted, "HISTO");
    }

    static SlaBoundary boundary() {
        return new SlaBoundary(new SlaBoundary.Searched("onnxruntime", "cpu", "tiny", "batch<=4 wait 2 ms", 1, 2.0, 4, 20.0),
                new SlaBoundary.Found(55.5, 3.3, 18.8, 2.2, true, SlaBoundary.MEASURED, false, 3.33),
                new SlaBoundary.Forecast(60.0, 1.08), List.of(new SlaBoundary.Step(50, 5, 250, 10.0, true, false, true)),
                new SlaBoundary.Cost(0.5, 0.25, 45.0), new SlaBoundary.Resimulation(1.1, 1.4, 58.0, 1.04),
                new SlaBoundary.SpeedCheck(1.02, 1.05, 42.0, 1.5, 12.0));
    }

    @Test
    void aLoadPointIsWrittenFlatAsBeforeAndReadBackWhole() throws Exception {
        String written = Json.mapper().writeValueAsString(point());
        assertEquals(Files.readString(GOLDEN.resolve("load-point.json")).strip(), written.strip());
        LoadPointResult read = Json.mapper().readValue(written, LoadPointResult.class);
        assertEquals(point(), read);
        assertEquals(0.004, read.errorRate(), 1e-12);
        assertEquals(1.3, read.predicted().servedPassP99Ratio(), 0);
    }

    @Test
    void anSlaBoundaryIsWrittenFlatAsBeforeAndReadBackWhole() throws Exception {
        String written = Json.mapper().writeValueAsString(boundary());
        assertEquals(Files.readString(GOLDEN.resolve("sla-boundary.json")).strip(), written.strip());
        SlaBoundary read = Json.mapper().readValue(written, SlaBoundary.class);
        assertEquals(boundary(), read);
        assertEquals(1.08, read.predictedToMeasured(), 0);
        assertEquals(12.0, read.generatorLongestStallMs(), 0);
    }

    @Test
    void aBoundaryWithoutItsChecksReadsBackWithEmptyGroups() throws Exception {
        SlaBoundary bare = new SlaBoundary(new SlaBoundary.Searched("onnxruntime", "cpu", "tiny", "no batching", 1, null, 1,
                20.0), new SlaBoundary.Found(null, null, null, null, null, SlaBoundary.NONE, null, 3.33),
                new SlaBoundary.Forecast(null, null), List.of());
        String written = Json.mapper().writeValueAsString(bare);
        SlaBoundary read = Json.mapper().readValue(written, SlaBoundary.class);
        assertEquals(bare, read);
        assertEquals(null, read.speedCheckRatio());
    }
}
