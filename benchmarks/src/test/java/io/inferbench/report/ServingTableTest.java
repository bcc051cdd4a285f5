package io.inferbench.report;

import io.inferbench.results.SlaBoundary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SLA boundary's console line says what the forecast was brought to: the speed checks and the generator's stalls. */
class ServingTableTest {
    private static SlaBoundary boundary() {
        return new SlaBoundary(new SlaBoundary.Searched("onnxruntime", "cpu", "tiny", "no batching", 1, null, 1, 20),
                new SlaBoundary.Found(1667.7, 1.0, 19.5, 1.0, true, SlaBoundary.MEASURED, false, 3.33),
                new SlaBoundary.Forecast(1228.5, 1228.5 / 1667.7), List.of(), null, null, null);
    }

    @Test
    void theBoundaryLineNamesTheStallsTheForecastReplayed() {
        String line = ServingTable.boundaryLine(boundary().withSpeedCheck(1.06, 1.12, 993.4, 5.2, 21.2));
        assertTrue(line.contains("predicted/measured 0.74x (passes re-timed before the search: x1.06 the sweep's alone, "
                + "x1.12 served at 993.4 requests/s; generator stalled 5.2% of it, longest 21.2 ms)"), line);
    }

    @Test
    void aRunFromBeforeTheStallsWereRecordedReadsAsItDid() {
        String line = ServingTable.boundaryLine(boundary().withSpeedCheck(1.06, 1.12, 993.4, null, null));
        assertFalse(line.contains("stalled"), line);
        assertEquals("", ServingTable.stalls(boundary()));
    }
}
