package io.inferbench.precision;

import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import io.inferbench.BenchmarkException;
import io.inferbench.TestPaths;
import io.inferbench.cli.Settings;
import io.inferbench.engine.Device;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.TokenBatch;
import io.inferbench.engine.onnxruntime.OnnxRuntimeEngine;
import io.inferbench.model.EncoderConfig;
import io.inferbench.model.EncoderPreset;
import io.inferbench.model.EncoderWeights;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.model.Precision;
import io.inferbench.model.TokenInputs;
import io.inferbench.runner.Preflight;
import io.inferbench.runner.TestOptions;
import io.inferbench.sweep.ForwardKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The built-in precision variants: how they are written, how close their outputs stay, and FP16 on the CPU. */
class PrecisionVariantsTest {
    /** tiny, seed 42, generator 1, as earlier builds wrote it: the precision work must not change the float32 model. */
    static final String TINY_FP32_SHA256 = "49af879f2f0764a452be46d4608b56161588b80d9849b2ea8ada50246a16d841";
    static final EncoderConfig TINY = EncoderPreset.TINY.config();

    /** The stated tolerance of int8 against float32, on logits of magnitude about 0.1 to 0.3. */
    static final double INT8_MAX_ABS = 0.01;
    static final double INT8_MIN_COSINE = 0.999;
    static final double INT8_MIN_TOP1 = 0.99;

    @TempDir
    Path dir;

    private static Path model(String name) {
        return new ModelResolver(TestPaths.modelCache(), 42).locate(ModelSource.parse(name));
    }

    private static OutputAgreement.Stats compare(String reference, String candidate, int inputs, int seq) {
        OutputAgreement agreement = new OutputAgreement(true);
        OnnxRuntimeEngine ort = new OnnxRuntimeEngine();
        try (InferenceSession ref = ort.open(new SessionSpec(ModelSource.parse(reference), model(reference), 42, Device.parse("cpu"), 1, 1, false));
             InferenceSession cand = ort.open(new SessionSpec(ModelSource.parse(candidate), model(candidate), 42, Device.parse("cpu"), 1, 1, false));
             InferenceSession.Runner r = ref.newRunner(); InferenceSession.Runner c = cand.newRunner()) {
            for (int i = 0; i < inputs; i++) {
                TokenBatch tokens = TokenBatch.full(1, seq, TokenInputs.tokenIds(1, seq, 1000 + i));
                r.prepare(tokens);
                r.forward();
                c.prepare(tokens);
                c.forward();
                agreement.add(r.firstOutput(), c.firstOutput(), 1);
            }
        }
        return agreement.stats();
    }

    @Test
    void theFloat32ModelIsByteForByteWhatEarlierBuildsWrote() {
        ModelResolver resolver = new ModelResolver(dir, 42);
        assertEquals(TINY_FP32_SHA256, resolver.resolve(ModelSource.parse("tiny")).sha256());
        assertTrue(resolver.cachedFile(new ModelSource.Builtin(EncoderPreset.TINY, Precision.INT8)).getFileName().toString()
                .equals("encoder-tiny-int8-seed42-g1.onnx"), "each precision has its own cache file");
    }

    /** 100 seeded inputs at batch 1, seq 64: int8 logits within the stated tolerance of float32's, top-1 kept. */
    @Test
    void int8LogitsMatchFloat32OnAHundredSeededInputs() {
        OutputAgreement.Stats s = compare("tiny", "tiny-int8", 100, 64);
        assertEquals(100, s.rows());
        assertTrue(s.maxAbsError() > 0, "int8 is not float32: some difference must show");
        assertTrue(s.maxAbsError() <= INT8_MAX_ABS, "max abs " + s.maxAbsError());
        assertTrue(s.minCosine() >= INT8_MIN_COSINE, "min cosine " + s.minCosine());
        assertTrue(s.top1Agreement() >= INT8_MIN_TOP1, "top-1 " + s.top1Agreement());
        System.out.printf("tiny-int8 vs tiny, 100 inputs at seq 64: max abs %.5f, max rel %.4f, min cosine %.6f, top-1 %.2f%n",
                s.maxAbsError(), s.maxRelError(), s.minCosine(), s.top1Agreement());
    }

    /** Every weight product is MatMulInteger on per-column int8 weights, each within half a step of the float weight. */
    @Test
    void int8QuantizesEveryWeightProductPerOutputChannel() throws IOException {
        ModelProto proto = ModelProto.parseFrom(Files.readAllBytes(model("tiny-int8")));
        Map<String, Long> ops = proto.getGraph().getNodeList().stream().collect(Collectors.groupingBy(NodeProto::getOpType,
                Collectors.counting()));
        long weightProducts = 6L * TINY.layers() + 1;
        assertEquals(weightProducts, ops.get("MatMulInteger"));
        assertEquals(weightProducts, ops.get("DynamicQuantizeLinear"));
        assertEquals(2L * TINY.layers(), ops.get("MatMul"), "the attention products stay float32");
        Map<String, TensorProto> init = proto.getGraph().getInitializerList().stream()
                .collect(Collectors.toMap(TensorProto::getName, Function.identity()));
        TensorProto q = init.get("layer1.w1.int8");
        TensorProto scales = init.get("layer1.w1.scale");
        assertEquals(TensorProto.DataType.INT8.getNumber(), q.getDataType());
        int rows = TINY.hidden();
        int cols = TINY.ffnHidden();
        assertEquals(cols, scales.getDims(0), "one scale per output channel");
        float[] scale = new float[cols];
        ByteBuffer.wrap(scales.getRawData().toByteArray()).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(scale);
        byte[] values = q.getRawData().toByteArray();
        float[] w = EncoderWeights.generate(TINY, 42).layers().get(1).ffn().w1();
        int[] maxQ = new int[cols];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                int v = values[r * cols + c];
                maxQ[c] = Math.max(maxQ[c], Math.abs(v));
                assertTrue(Math.abs(w[r * cols + c] - v * scale[c]) <= scale[c] / 2 * 1.0001, "within half a step at " + r + "," + c);
            }
        }
        for (int c = 0; c < cols; c++) {
            assertEquals(127, maxQ[c], "the column's largest weight maps to 127 (symmetric, per column): column " + c);
        }
    }

    @Test
    void float16HasHalfWeightsAndFloat32Logits() throws IOException {
        ModelProto proto = ModelProto.parseFrom(Files.readAllBytes(model("tiny-fp16")));
        assertTrue(proto.getGraph().getInitializerList().stream().allMatch(t -> t.getDataType() == TensorProto.DataType.FLOAT16.getNumber()
                || t.getDataType() == TensorProto.DataType.INT64.getNumber()), "weights in float16, shapes in int64");
        assertEquals(TensorProto.DataType.FLOAT.getNumber(), proto.getGraph().getOutput(0).getType().getTensorType().getElemType());
        OutputAgreement.Stats s = compare("tiny", "tiny-fp16", 20, 32);
        assertTrue(s.maxAbsError() > 0 && s.maxAbsError() <= 1e-3, "float16 weights round by 2^-11 relative: " + s.maxAbsError());
    }

    /** On this CPU build, ONNX Runtime would run tiny-fp16's ops in float32 behind inserted casts: refused, naming them. */
    @Test
    void float16OnTheCpuIsRefusedNamingTheKernels() {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.model", "tiny-fp16");
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> Preflight.check(Settings.sweep(p), new ForwardKind(),
                new PrintStream(new ByteArrayOutputStream())));
        assertTrue(e.getMessage().contains("tiny-fp16 is a float16 model, but onnxruntime"), e.getMessage());
        assertTrue(e.getMessage().contains("no float16 kernel for [") && e.getMessage().contains("MatMul"), e.getMessage());
        assertTrue(e.getMessage().contains("InsertedPrecisionFreeCast") && e.getMessage().contains("-Dbench.model=tiny,tiny-int8"),
                e.getMessage());
    }
}
