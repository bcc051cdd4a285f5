package io.inferbench.precision;

import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import com.google.protobuf.ByteString;
import io.inferbench.BenchmarkException;
import io.inferbench.TestPaths;
import io.inferbench.cli.Settings;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.pipeline.TestRuns;
import io.inferbench.results.AgreementResult;
import io.inferbench.results.RunResult;
import io.inferbench.runner.InProcessForkExecutor;
import io.inferbench.runner.Preflight;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TestOptions;
import io.inferbench.sweep.ForwardKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pairs with the reference on a real small sweep: an exact copy, the int8 variant, and a planted difference. */
class AgreementRunnerTest {
    /** What the planted model adds to the first logit of every row. */
    static final float PLANTED_SHIFT = 0.3f;

    @TempDir
    Path dir;

    private static Path tiny() {
        return new ModelResolver(TestPaths.modelCache(), 42).locate(ModelSource.parse("tiny"));
    }

    /** tiny with {@code change} applied to its graph, written as a user's ONNX file. */
    private Path edited(String name, java.util.function.UnaryOperator<ModelProto.Builder> change) throws IOException {
        ModelProto.Builder proto = ModelProto.parseFrom(Files.readAllBytes(tiny())).toBuilder();
        Path file = dir.resolve(name);
        Files.write(file, change.apply(proto).build().toByteArray());
        return file;
    }

    private Path planted() throws IOException {
        return edited("planted.onnx", proto -> {
            var graph = proto.getGraphBuilder();
            for (int i = 0; i < graph.getInitializerCount(); i++) {
                TensorProto t = graph.getInitializer(i);
                if (t.getName().equals("head.bias")) {
                    ByteBuffer bias = ByteBuffer.wrap(t.getRawData().toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
                    bias.putFloat(0, bias.getFloat(0) + PLANTED_SHIFT);
                    graph.setInitializer(i, t.toBuilder().setRawData(ByteString.copyFrom(bias.array())));
                }
            }
            return proto;
        });
    }

    private Properties options(String models, String reference) {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.model", models);
        p.setProperty("bench.reference", reference);
        p.setProperty("bench.agreement.inputs", "4");
        return p;
    }

    @Test
    void aCopyAgreesExactlyInt8AgreesAndAPlantedDifferenceIsCaught() throws Exception {
        Path copy = Files.copy(tiny(), dir.resolve("copy.onnx"));
        Path planted = planted();
        SweepOptions sweep = Settings.sweep(options("tiny,tiny-int8," + copy + "," + planted, "tiny"));
        PrintStream log = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        RunResult run = TestRuns.sweep(sweep, new InProcessForkExecutor(), log).run();
        AgreementResult result = new AgreementRunner(sweep.sessionDefaults(), sweep.plan().reference(), Settings.agreement(options("tiny", "tiny")), log).run(run);

        assertEquals("tiny", result.reference());
        assertEquals(3, result.pairs().size(), "every other model, on the one engine and device");
        int shapes = sweep.plan().seqLens().size() * sweep.plan().batches().size();
        for (AgreementResult.Pair pair : result.pairs()) {
            assertNull(pair.refusal(), pair.model());
            assertTrue(pair.classifier(), "logits [batch, 2] are class scores");
            assertEquals(shapes, pair.shapes().size());
            for (AgreementResult.ShapeAgreement s : pair.shapes()) {
                assertEquals(4 * s.batch(), s.rows(), "4 seeded batches per shape");
                assertEquals(s.referenceP50Ms() / s.modelP50Ms(), s.speedupP50(), 1e-12, "speed-up from the sweep's cells");
            }
        }
        AgreementResult.Pair same = pair(result, copy.toString());
        assertTrue(same.shapes().stream().allMatch(s -> s.maxAbsError() == 0 && s.minCosine() > 1 - 1e-6 && s.agrees()
                && s.top1Agreement() == 1.0), "the same graph on the same inputs: identical outputs");
        AgreementResult.Pair int8 = pair(result, "tiny-int8");
        assertTrue(int8.shapes().stream().allMatch(s -> s.agrees() && s.maxAbsError() > 0 && s.maxAbsError() < 0.01), "int8 agrees");
        AgreementResult.Pair bad = pair(result, planted.toString());
        for (AgreementResult.ShapeAgreement s : bad.shapes()) {
            assertEquals(PLANTED_SHIFT, s.maxAbsError(), 1e-5, "exactly the planted shift, on the first logit");
            assertTrue(!s.agrees() && s.minCosine() < 0.99, "caught at seq " + s.seqLen() + " batch " + s.batch() + ": " + s);
        }
    }

    private static AgreementResult.Pair pair(AgreementResult result, String model) {
        return result.pairs().stream().filter(p -> p.model().equals(model)).findFirst().orElseThrow();
    }

    @Test
    void aReferenceThatIsNotInTheRunIsRefused() throws Exception {
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> Settings.sweep(options("tiny-int8", "tiny")));
        assertTrue(e.getMessage().contains("-Dbench.reference=tiny is not one of the run's models [tiny-int8]")
                && e.getMessage().contains("-Dbench.model=tiny-int8,tiny"), e.getMessage());
        BenchmarkException alone = assertThrows(BenchmarkException.class, () -> Settings.sweep(options("tiny", "tiny")));
        assertTrue(alone.getMessage().contains("needs another model to compare with"), alone.getMessage());
    }

    @Test
    void aReferenceAnEngineCannotLoadIsRefused() throws Exception {
        Properties p = options("tiny,tiny-int8", "tiny-int8");
        p.setProperty("bench.backend", "onnxruntime,djl");
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> Settings.sweep(p));
        assertTrue(e.getMessage().contains("The reference tiny-int8 cannot be loaded by djl (djl does not load the int8 and float16 built-in encoders)")
                && e.getMessage().contains("which runs [tiny]"), e.getMessage());
    }

    /** A model whose output has another name cannot be compared: refused in preflight, before anything is measured. */
    @Test
    void aPairWhoseOutputsDifferInNameIsRefusedBeforeMeasuring() throws Exception {
        Path renamed = edited("renamed.onnx", proto -> {
            var graph = proto.getGraphBuilder();
            graph.setOutput(0, graph.getOutput(0).toBuilder().setName("scores"));
            for (int i = 0; i < graph.getNodeCount(); i++) {
                NodeProto node = graph.getNode(i);
                if (node.getOutput(0).equals("logits")) {
                    graph.setNode(i, node.toBuilder().setOutput(0, "scores"));
                }
            }
            return proto;
        });
        SweepOptions sweep = Settings.sweep(options("tiny," + renamed, "tiny"));
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> Preflight.check(sweep, new ForwardKind(),
                new PrintStream(new ByteArrayOutputStream())));
        assertTrue(e.getMessage().contains("Cannot compare " + renamed + " with the reference tiny")
                && e.getMessage().contains("the outputs differ in name: [scores] against the reference's [logits]"), e.getMessage());
        assertTrue(Files.notExists(dir.resolve("results")) || Files.list(dir.resolve("results")).findAny().isEmpty(),
                "no run was started");
    }
}
