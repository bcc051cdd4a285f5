package io.inferbench.runner;

import io.inferbench.BenchmarkException;
import io.inferbench.cli.Settings;
import io.inferbench.sweep.BucketFile;
import io.inferbench.sweep.ForwardKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SweepOptionsTest {
    @TempDir
    Path dir;

    private BenchmarkException refused(String key, String value) {
        Properties p = TestOptions.minimal(dir);
        p.setProperty(key, value);
        return assertThrows(BenchmarkException.class, () -> Settings.sweep(p));
    }

    @Test
    void zeroOrNegativeSeqAndBatchAreRefused() {
        assertTrue(refused("bench.seq", "64,0").getMessage().contains("bench.seq must be 1 or more, got 0"));
        assertTrue(refused("bench.batch", "-2").getMessage().contains("bench.batch must be 1 or more, got -2"));
        assertTrue(refused("bench.iterations", "0").getMessage().contains("bench.iterations must be 1 or more"));
        assertTrue(refused("bench.threads", "0").getMessage().contains("bench.threads must be 1 or more"));
        assertTrue(refused("bench.warmup", "-1").getMessage().contains("bench.warmup must be 0 or more"));
    }

    @Test
    void impossibleSizesAndNonNumbersAreRefused() {
        assertTrue(refused("bench.batch", "eight").getMessage().contains("must be a whole number, got 'eight'"));
        assertTrue(refused("bench.seq", "2000000000").getMessage().contains("more than one input tensor can hold"));
    }

    @Test
    void impossibleWarmUpAndStopRulesAreRefusedWithTheChoices() {
        assertTrue(refused("bench.resolve", "p95").getMessage().contains("expected one of [p50, p99, p99.9]"));
        assertTrue(refused("bench.precision", "0").getMessage().contains("no finite number of passes"));
        assertTrue(refused("bench.precision", "150").getMessage().contains("percentage between"));
        assertTrue(refused("bench.measureCapSeconds", "0").getMessage().contains("seconds above 0"));
        assertTrue(refused("bench.warmupCapSeconds", "soon").getMessage().contains("must be a number, got 'soon'"));
        assertTrue(refused("bench.isolation", "process").getMessage().contains("expected one of [model, cell]"));
        assertTrue(refused("bench.malloc", "jemalloc").getMessage().contains("expected one of [reuse, system]"));
    }

    @Test
    void unknownNamesListTheChoices() {
        assertTrue(refused("bench.backend", "tensorrt").getMessage().contains("expected one of [onnxruntime, djl]"));
        assertTrue(refused("bench.device", "tpu").getMessage().contains("expected one of cpu, cuda, cuda:N"));
    }

    @Test
    void missingModelFileIsRefusedBeforeAnythingRuns() {
        String message = refused("bench.model", dir.resolve("missing.onnx").toString()).getMessage();
        assertTrue(message.contains("Model file not found"), message);
        assertTrue(message.contains("tiny, base"), message);
    }

    @Test
    void aPtFileIsTakenAsTorchScript() throws IOException {
        Path pt = Files.createFile(dir.resolve("model.pt"));
        assertTrue(io.inferbench.model.ModelSource.parse(pt.toString()) instanceof io.inferbench.model.ModelSource.TorchScriptFile);
    }

    @Test
    void eachModelIsPlannedOnTheEnginesThatLoadItsFormat() throws IOException {
        Path onnx = io.inferbench.engine.TestModels.bertStyle(dir);
        Path pt = Files.createFile(dir.resolve("model.pt"));
        Properties p = TestOptions.minimal(dir);
        p.setProperty("bench.backend", "onnxruntime,djl");
        p.setProperty("bench.model", "tiny," + onnx + "," + pt);
        p.setProperty("bench.seq", "8");
        p.setProperty("bench.batch", "1");
        SweepOptions options = Settings.sweep(p);
        List<String> planned = Cell.plan(options, new ForwardKind()).stream().map(c -> c.backend() + " " + c.model()).toList();
        assertEquals(List.of("onnxruntime tiny", "onnxruntime " + onnx, "djl tiny", "djl " + pt), planned);
        assertEquals(List.of("onnxruntime x " + pt + " (onnxruntime does not load TorchScript files)",
                "djl x " + onnx + " (djl does not load ONNX files)"), Cell.skipped(options, new ForwardKind()));

        p.setProperty("bench.backend", "onnxruntime");
        p.setProperty("bench.model", pt.toString());
        assertTrue(assertThrows(BenchmarkException.class, () -> Settings.sweep(p))
                .getMessage().contains("None of the backends [onnxruntime] loads"));
    }

    @Test
    void seqLengthsComeFromTheBucketFileWhenNotGiven() throws IOException {
        Path buckets = Files.writeString(dir.resolve("b.buckets"), "# comment\n\n32\n128\n");
        Properties p = TestOptions.minimal(dir);
        p.setProperty("bench.seq", "");
        p.setProperty("bench.buckets", buckets.toString());
        SweepOptions options = Settings.sweep(p);
        assertEquals(List.of(32, 128), options.plan().seqLens());
        assertEquals(buckets.toString(), options.plan().bucketsFile());
    }

    @Test
    void theDefaultBucketFileHoldsTheDocumentedBuckets() {
        Path defaults = Path.of("..", "buckets", "default.buckets");
        assertEquals(List.of(64, 256, 512), BucketFile.read(defaults));
    }

    @Test
    void emptyOrBrokenBucketFilesAreRefused() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.buckets"), "# nothing\n");
        assertThrows(BenchmarkException.class, () -> BucketFile.read(empty));
        Path broken = Files.writeString(dir.resolve("broken.buckets"), "64\nabc\n");
        assertTrue(assertThrows(BenchmarkException.class, () -> BucketFile.read(broken)).getMessage().contains("Line 2"));
        assertThrows(BenchmarkException.class, () -> BucketFile.read(dir.resolve("absent.buckets")));
    }

    @Test
    void planOrdersSeriesTogether() {
        SweepOptions options = Settings.sweep(TestOptions.minimal(dir));
        List<Cell> plan = Cell.plan(options, new ForwardKind());
        assertEquals(4, plan.size());
        assertEquals(new Cell("onnxruntime", "cpu", "tiny", 8, 1), plan.get(0));
        assertEquals(new Cell("onnxruntime", "cpu", "tiny", 8, 2), plan.get(1));
        assertEquals(new Cell("onnxruntime", "cpu", "tiny", 16, 1), plan.get(2));
    }
}
