package io.inferbench.generate;

import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.StopPolicy;
import io.inferbench.measure.WarmupPolicy;
import io.inferbench.model.DecoderPreset;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.results.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A generation fork's job and result survive JSON, and a fork measures its cells in the job's order. */
class GenerationForkTest {
    @Test
    void aForkMeasuresItsCellsAndItsResultSurvivesJson(@TempDir Path cache) throws Exception {
        Path file = new ModelResolver(cache, 42).resolve(new ModelSource.BuiltinDecoder(DecoderPreset.TINY_DECODER)).path();
        GenerationJob job = new GenerationJob("onnxruntime", "cpu", "tiny-decoder", file.toString(), 42, 1, 1, false, Map.of(),
                List.of(), cache.resolve("djl").toString(), 4, 0, List.of(new int[] {8, 2}, new int[] {8, 1}),
                new WarmupPolicy(2, 0.05, 0, 1, 0, 0, 5_000), new StopPolicy(5, 0.02, 0.95, 1, 0, 5_000));
        GenerationJob read = Json.mapper().readValue(Json.mapper().writeValueAsString(job), GenerationJob.class);
        assertEquals(2, read.cells().size());
        assertEquals(2, read.cells().get(0)[1]);
        assertEquals(Integer.valueOf(5), read.stop().fixedPasses());

        GenerationJob.Result result = Json.mapper().readValue(Json.mapper().writeValueAsString(GenerationForkMain.run(read)),
                GenerationJob.Result.class);
        assertEquals(List.of(2, 1), result.cells().stream().map(GenerationJob.CellResult::batch).toList());
        GenerationJob.CellResult first = result.cells().get(0);
        assertEquals(2, first.warmupGenerations());
        assertEquals(5, HistogramCodec.decode(first.total()).getTotalCount(), "five measured generations");
        assertEquals(5 * 3, HistogramCodec.decode(first.step()).getTotalCount(), "three decode steps each");
        assertEquals(3, first.byPosition().size());
        assertEquals(2, first.firstTokens().length);
        assertEquals(4, first.firstTokens()[0].length);
        assertTrue(first.stop().contains("warm-up 2 generations") && first.stop().contains("measured 5"), first.stop());

        CellRecorder merged = new CellRecorder();
        merged.merge(first);
        merged.merge(first);
        assertEquals(10, merged.total.getTotalCount());
        assertEquals(4, merged.warmupGenerations);
        assertEquals(2, merged.stops.size());
    }
}
