package io.inferbench.profile;

import io.inferbench.TestPaths;
import io.inferbench.backend.Device;
import io.inferbench.backend.OnnxRuntimeBackend;
import io.inferbench.backend.SessionSpec;
import io.inferbench.backend.TokenBatch;
import io.inferbench.model.EncoderConfig;
import io.inferbench.model.EncoderPreset;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.model.TokenInputs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The profile parser on a real ONNX Runtime trace, the work count against a hand count, and the placement rule. */
class OpTraceTest {
    @TempDir
    Path dir;

    /**
     * A real trace of the built-in tiny at seq 8, batch 1, one CPU thread, two passes (taken with
     * SessionOptions.enableProfiling from ONNX Runtime 1.23.2 and kept as a resource): only the last pass is kept.
     */
    @Test
    void parsesARealProfileAndKeepsTheLastPass() throws URISyntaxException {
        OpTrace trace = OpTrace.parse(Path.of(getClass().getResource("/profile/ort-profile-tiny-seq8-batch1.json").toURI()));
        assertEquals(2, trace.passes());
        assertEquals(49, trace.nodes().size(), "the second pass's kernels");
        Map<String, Long> ops = trace.nodes().stream().collect(Collectors.groupingBy(OpTrace.NodeRun::opType, Collectors.counting()));
        assertEquals(14L, ops.get("MatMul"));
        assertEquals(2L, ops.get("FusedMatMul"), "ONNX Runtime's fused QK^T, one per layer");
        assertEquals(4L, ops.get("SkipLayerNormalization"));
        assertTrue(trace.nodes().stream().allMatch(n -> n.provider().equals("CPUExecutionProvider")));
        OpTrace.NodeRun gather = trace.nodes().stream().filter(n -> n.opType().equals("Gather")).findFirst().orElseThrow();
        assertArrayEquals(new long[] {1, 8, 128}, gather.outputs().get(0).dims());
        assertArrayEquals(new long[] {30000, 128}, gather.inputs().get(0).dims());
        assertTrue(trace.passUs() > trace.kernelUs() * 0.5 && trace.kernelUs() > 0, trace.passUs() + " vs " + trace.kernelUs());
        WorkCount count = WorkCount.of(trace);
        assertEquals(List.of(), count.uncounted());
        assertTrue(count.bytes() > 0 && count.flops() > 0);
    }

    /**
     * The FLOPs of tiny at seq 64, batch 1, counted from a live profile, against the architecture by hand: per layer four
     * projections (4 x 2 s h^2), two feed-forward products (2 x 2 s h (4h)) and two attention products (2 x 2 s^2 h), so
     * 24 s h^2 + 4 s^2 h per layer, plus the head on the pooled row (2 h labels); the embedding lookup counts 0. The products in the trace must add up to exactly
     * that (to rounding); the element-wise kernels, at their stated per-element costs, come on top and stay small.
     */
    @Test
    void theFlopCountOfTinyMatchesTheHandCount() {
        EncoderConfig c = EncoderPreset.TINY.config();
        long s = 64;
        long h = c.hidden();
        double hand = c.layers() * (24.0 * s * h * h + 4.0 * s * s * h) + 2.0 * h * c.numLabels();
        ModelSource tiny = new ModelSource.Builtin(EncoderPreset.TINY);
        Path model = new ModelResolver(TestPaths.modelCache(), 42).locate(tiny);
        Path tracePath = new OnnxRuntimeBackend().profilePass(new SessionSpec(tiny, model, 42, Device.parse("cpu"), 1, 1, false),
                TokenBatch.full(1, 64, TokenInputs.tokenIds(1, 64, 42)), 1, 1, dir).orElseThrow();
        OpTrace trace = OpTrace.parse(tracePath, 1);
        double products = trace.nodes().stream().filter(n -> n.opType().contains("MatMul") || n.opType().equals("Gemm"))
                .mapToDouble(WorkCount::matmulFlops).sum();
        WorkCount count = WorkCount.of(trace);
        assertEquals(hand, products, 1e-9 * hand, "products counted " + products + ", by hand " + hand);
        double elementWise = count.flops() - products;
        assertTrue(elementWise > 0 && elementWise < 0.05 * hand, "element-wise " + elementWise + " of " + count.flops());
        assertEquals(List.of(), count.uncounted());
        System.out.printf("tiny seq 64 batch 1: %.2f MFLOP counted (%.2f in products, %.2f by hand), %.2f MB moved%n",
                count.flops() / 1e6, products / 1e6, hand / 1e6, count.bytes() / 1e6);
    }

    /** Pre-packed weights are not in the trace, but are read: K x N at the activations' size, one byte for int8 products. */
    @Test
    void prePackedWeightsAreCountedAsRead() {
        OpTrace.Shape x = new OpTrace.Shape("float", new long[] {1, 64, 128});
        OpTrace.Shape y = new OpTrace.Shape("float", new long[] {1, 64, 512});
        OpTrace.NodeRun packed = new OpTrace.NodeRun("up", "MatMul", "CPUExecutionProvider", 1, List.of(x), List.of(y));
        assertEquals(4.0 * 128 * 512, WorkCount.unlistedWeightBytes(packed));
        assertEquals(4.0 * (64 * 128 + 64 * 512 + 128 * 512), WorkCount.bytes(packed));
        OpTrace.NodeRun int8 = new OpTrace.NodeRun("up8", "DynamicQuantizeMatMul", "CPUExecutionProvider", 1,
                List.of(x, new OpTrace.Shape("float", new long[] {512})), List.of(y));
        assertEquals(128.0 * 512, WorkCount.unlistedWeightBytes(int8));
        assertEquals(2.0 * 64 * 512 * 128, WorkCount.flops(int8, new java.util.ArrayList<>()), "an integer product is a product");
        OpTrace.Shape q = new OpTrace.Shape("float", new long[] {1, 4, 64, 32});
        OpTrace.Shape kt = new OpTrace.Shape("float", new long[] {1, 4, 32, 64});
        OpTrace.NodeRun attention = new OpTrace.NodeRun("qk", "FusedMatMul", "CPUExecutionProvider", 1, List.of(q, kt),
                List.of(new OpTrace.Shape("float", new long[] {1, 4, 64, 64})));
        assertEquals(0, WorkCount.unlistedWeightBytes(attention), "both operands are listed activations");
    }

    /** Three profiled passes after one warm-up: each node's duration is its median, so one preempted kernel is not the profile. */
    @Test
    void eachNodeTakesItsMedianOverTheProfiledPasses() throws IOException {
        StringBuilder json = new StringBuilder("[");
        double[][] durations = {{900, 900}, {10, 50}, {12, 48}, {400, 52}}; // warm-up, then three passes: MatMul, Softmax
        long ts = 0;
        for (double[] pass : durations) {
            json.append(String.format(Locale.ROOT, "{\"cat\":\"Session\",\"name\":\"model_run\",\"ts\":%d,\"dur\":%d},", ts, 1000));
            json.append(node(ts + 10, "mm", "MatMul", pass[0])).append(',').append(node(ts + 500, "sm", "Softmax", pass[1])).append(',');
            ts += 2000;
        }
        json.setLength(json.length() - 1);
        Path file = Files.writeString(dir.resolve("trace.json"), json.append(']').toString());
        OpTrace trace = OpTrace.parse(file, 1);
        assertEquals(4, trace.passes());
        assertEquals(List.of("mm", "sm"), trace.nodes().stream().map(OpTrace.NodeRun::name).toList());
        assertEquals(12, trace.nodes().get(0).durationUs(), "median of 10, 12, 400; the warm-up's 900 is dropped");
        assertEquals(50, trace.nodes().get(1).durationUs(), "median of 50, 48, 52");
        assertEquals(1000, trace.passUs());
    }

    private static String node(long ts, String name, String op, double dur) {
        return String.format(Locale.ROOT, "{\"cat\":\"Node\",\"name\":\"%s_kernel_time\",\"ts\":%d,\"dur\":%.0f,\"args\":"
                + "{\"op_name\":\"%s\",\"provider\":\"CPUExecutionProvider\",\"input_type_shape\":[{\"float\":[1,8]}],"
                + "\"output_type_shape\":[{\"float\":[1,8]}]}}", name, ts, dur, op);
    }

    private static OpTrace.NodeRun node(String name, String op, String provider, double us) {
        OpTrace.Shape shape = new OpTrace.Shape("float", new long[] {1, 64, 128});
        return new OpTrace.NodeRun(name, op, provider, us, List.of(shape, shape), List.of(shape));
    }

    @Test
    void shapeNodesOnTheCpuAreAcceptedInACudaSession() {
        OpTrace trace = new OpTrace(List.of(node("shape_1", "Shape", "CPUExecutionProvider", 1),
                node("gather_shape", "Gather", "CPUExecutionProvider", 1), node("concat_dims", "Concat", "CPUExecutionProvider", 1),
                node("matmul_q", "MatMul", "CUDAExecutionProvider", 400), node("softmax", "Softmax", "CUDAExecutionProvider", 50)), 460, 2);
        Placement.CpuPlacement placement = Placement.of(trace);
        assertTrue(placement.acceptable(), placement.toString());
        assertNull(placement.refusal());
        assertEquals(3, placement.cpuNodes().size());
    }

    @Test
    void aMatMulOnTheCpuIsRefusedWithItsName() {
        OpTrace trace = new OpTrace(List.of(node("shape_1", "Shape", "CPUExecutionProvider", 1),
                node("layer0_matmul_q", "MatMul", "CPUExecutionProvider", 30),
                node("matmul_k", "MatMul", "CUDAExecutionProvider", 400)), 431, 2);
        Placement.CpuPlacement placement = Placement.of(trace);
        assertFalse(placement.acceptable());
        assertTrue(placement.refusal().contains("layer0_matmul_q (MatMul)"), placement.refusal());
        assertTrue(placement.refusal().contains("-Dbench.allowCpuFallback=true"), placement.refusal());
    }

    @Test
    void shapeWorkOverOnePercentOfThePassIsRefusedToo() {
        OpTrace trace = new OpTrace(List.of(node("slow_gather", "Gather", "CPUExecutionProvider", 20),
                node("matmul", "MatMul", "CUDAExecutionProvider", 100)), 120, 2);
        Placement.CpuPlacement placement = Placement.of(trace);
        assertFalse(placement.acceptable());
        assertTrue(placement.cpuComputeNodes().isEmpty());
        assertTrue(placement.refusal().contains("slow_gather (Gather)"), placement.refusal());
    }
}
