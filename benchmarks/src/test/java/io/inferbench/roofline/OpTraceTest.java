package io.inferbench.roofline;

import io.inferbench.TestPaths;
import io.inferbench.engine.Device;
import io.inferbench.engine.OpTrace;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.TokenBatch;
import io.inferbench.engine.onnxruntime.OnnxRuntimeEngine;
import io.inferbench.engine.onnxruntime.OrtProfile;
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
        OpTrace trace = OpTrace.afterWarmup(OrtProfile.read(Path.of(getClass().getResource("/profile/ort-profile-tiny-seq8-batch1.json").toURI())), 1);
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
    /**
     * Profiles taken back to back into one folder each keep a file of their own, named by model and shape: ONNX Runtime's
     * own name ({@code ort-profile_<second>.json}) made the traces of a second overwrite each other, so a cell's
     * profile note named a file holding another shape's passes.
     */
    @Test
    void profilesTakenWithinASecondKeepFilesOfTheirOwn() {
        ModelSource tiny = new ModelSource.Builtin(EncoderPreset.TINY);
        Path model = new ModelResolver(TestPaths.modelCache(), 42).locate(tiny);
        SessionSpec spec = new SessionSpec(tiny, model, 42, Device.parse("cpu"), 1, 1, false);
        String stem = "ort-" + model.getFileName().toString().replaceFirst("\\.onnx$", "") + "-seq8-batch";
        int[] batches = {1, 2, 1};
        List<Path> traces = new java.util.ArrayList<>();
        for (int batch : batches) {
            traces.add(new OnnxRuntimeEngine().profilePass(spec, TokenBatch.full(batch, 8, TokenInputs.tokenIds(batch, 8, 42)),
                    0, 1, dir).orElseThrow());
        }
        assertEquals(List.of(dir.resolve(stem + "1.json"), dir.resolve(stem + "2.json"), dir.resolve(stem + "1-2.json")), traces);
        for (int i = 0; i < batches.length; i++) {
            OpTrace.NodeRun gather = OpTrace.afterWarmup(OrtProfile.read(traces.get(i)), 1).nodes().stream().filter(n -> n.opType().equals("Gather"))
                    .findFirst().orElseThrow();
            assertArrayEquals(new long[] {batches[i], 8, 128}, gather.outputs().get(0).dims(), traces.get(i) + " holds its own passes");
        }
    }

    @Test
    void theFlopCountOfTinyMatchesTheHandCount() {
        EncoderConfig c = EncoderPreset.TINY.config();
        long s = 64;
        long h = c.hidden();
        double hand = c.layers() * (24.0 * s * h * h + 4.0 * s * s * h) + 2.0 * h * c.numLabels();
        ModelSource tiny = new ModelSource.Builtin(EncoderPreset.TINY);
        Path model = new ModelResolver(TestPaths.modelCache(), 42).locate(tiny);
        Path tracePath = new OnnxRuntimeEngine().profilePass(new SessionSpec(tiny, model, 42, Device.parse("cpu"), 1, 1, false),
                TokenBatch.full(1, 64, TokenInputs.tokenIds(1, 64, 42)), 1, 1, dir).orElseThrow();
        OpTrace trace = OpTrace.afterWarmup(OrtProfile.read(tracePath), 1);
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

    private static OpTrace.NodeRun product(String op, long[] a, long[] b, long[] out) {
        List<OpTrace.Shape> inputs = b == null ? List.of(new OpTrace.Shape("float", a))
                : List.of(new OpTrace.Shape("float", a), new OpTrace.Shape("float", b));
        return new OpTrace.NodeRun("p", op, "CPUExecutionProvider", true, 1, inputs, List.of(new OpTrace.Shape("float", out)));
    }

    /**
     * K is A's contracted dimension, by ONNX's MatMul rules, not the output's batch: A [64, 32] x B [8, 32, 64]
     * broadcasts A over 8 products of 64 x 32 x 64 (the old count took K = 4); a 1-D B drops N (A [4, 32] x B [32]:
     * K = 32, not 128); a 1-D A is [K]; a transposed A (Gemm's transA) is [K, M].
     */
    @Test
    void productsTakeKFromTheContractedDimensionUnderBroadcasting() {
        assertEquals(2.0 * 8 * 64 * 64 * 32, WorkCount.matmulFlops(product("MatMul", new long[] {64, 32},
                new long[] {8, 32, 64}, new long[] {8, 64, 64})));
        assertEquals(2.0 * 4 * 32, WorkCount.matmulFlops(product("MatMul", new long[] {4, 32}, new long[] {32}, new long[] {4})));
        assertEquals(2.0 * 16 * 32, WorkCount.matmulFlops(product("MatMul", new long[] {32}, new long[] {32, 16}, new long[] {16})));
        assertEquals(2.0 * 10 * 20 * 30, WorkCount.matmulFlops(product("Gemm", new long[] {30, 10}, new long[] {30, 20},
                new long[] {10, 20})), "transA: A is [K, M]");
        assertEquals(2.0 * 2 * 12 * 64 * 64 * 32, WorkCount.matmulFlops(product("MatMul", new long[] {2, 12, 64, 32},
                new long[] {2, 12, 32, 64}, new long[] {2, 12, 64, 64})), "attention scores");
    }

    /**
     * A hand-built ONNX graph with a broadcast product, profiled through ONNX Runtime at batch 1, 2, 4 and 8: ids
     * [batch, 2048] cast and reshaped to X [batch, 32, 64], then W [64, 32] x X, W broadcast over the batch: batch
     * products of 64 x 32 x 64, so 2 * batch * 64 * 64 * 32 FLOPs, by hand. (The old count took K from the output's
     * batch and was off by the batch size.)
     */
    @Test
    void aBroadcastProductInAHandBuiltGraphIsCountedByHandAtEveryBatch() throws IOException {
        io.inferbench.model.OnnxGraphBuilder g = new io.inferbench.model.OnnxGraphBuilder("broadcast");
        g.input("input_ids", ai.onnx.proto.OnnxMl.TensorProto.DataType.INT64, "batch", "seq");
        g.output("out", ai.onnx.proto.OnnxMl.TensorProto.DataType.FLOAT, "batch", 64, 64);
        String x = g.node("Cast", new String[] {"input_ids"}, io.inferbench.model.OnnxGraphBuilder.intAttribute("to",
                ai.onnx.proto.OnnxMl.TensorProto.DataType.FLOAT.getNumber()));
        String shaped = g.node("Reshape", x, g.int64Initializer("shape", -1, 32, 64));
        float[] w = new float[64 * 32];
        java.util.Arrays.fill(w, 0.01f);
        g.nodeWithOutput("MatMul", new String[] {g.floatInitializer("w", w, 64, 32), shaped}, "out");
        Path model = dir.resolve("broadcast.onnx");
        try (java.io.OutputStream out = Files.newOutputStream(model)) {
            g.build("test", "a broadcast MatMul").writeTo(out);
        }
        for (int batch : new int[] {1, 2, 4, 8}) {
            Path traceDir = Files.createDirectories(dir.resolve("trace-" + batch));
            Path tracePath = new OnnxRuntimeEngine().profilePass(new SessionSpec(model, Device.parse("cpu"), 1, false),
                    TokenBatch.full(batch, 2048, new long[batch * 2048]), 1, 1, traceDir).orElseThrow();
            OpTrace trace = OpTrace.afterWarmup(OrtProfile.read(tracePath), 1);
            double products = trace.nodes().stream().filter(n -> WorkCount.PRODUCTS.contains(n.opType()))
                    .mapToDouble(WorkCount::matmulFlops).sum();
            assertEquals(2.0 * batch * 64 * 64 * 32, products, 1e-9, "batch " + batch + ": " + trace.nodes());
        }
    }

    /**
     * The example CNN's convolutions, counted from a real ONNX Runtime trace, against a hand count: conv1 makes
     * 16 x 64 x 64 outputs of a 3 x 3 x 3 filter (2 x 27 FLOPs each, plus the bias), conv2 32 x 32 x 32 outputs of a
     * 16 x 3 x 3 filter (2 x 144, plus the bias); the max pool reads 16 x 64 x 64 values and the global average pool
     * 32 x 32 x 32, one operation each. Every op of the graph has a rule: nothing is left uncounted.
     */
    @Test
    void convolutionsAndPoolingMatchAHandCount(@TempDir Path dir) throws IOException {
        io.inferbench.model.ExampleModels.write(dir, 42);
        Path model = dir.resolve(io.inferbench.model.ExampleModels.IMAGE_CNN);
        for (int batch : new int[] {1, 3}) {
            Path traceDir = Files.createDirectories(dir.resolve("cnn-trace-" + batch));
            Path tracePath = new OnnxRuntimeEngine().profilePass(new SessionSpec(model, Device.parse("cpu"), 1, false),
                    TokenBatch.full(batch, 0, new long[0]), 1, 1, traceDir).orElseThrow();
            OpTrace trace = OpTrace.afterWarmup(OrtProfile.read(tracePath), 1);
            double conv = trace.nodes().stream().filter(n -> WorkCount.CONVOLUTIONS.contains(n.opType()))
                    .mapToDouble(WorkCount::convFlops).sum();
            double conv1 = 16 * 64 * 64 * (2.0 * 3 * 3 * 3 + 1);
            double conv2 = 32 * 32 * 32 * (2.0 * 16 * 3 * 3 + 1);
            assertEquals(batch * (conv1 + conv2), conv, 1e-6, "batch " + batch + ": " + trace.nodes());
            double pooling = trace.nodes().stream().filter(n -> WorkCount.POOLING.contains(n.opType()))
                    .mapToDouble(n -> WorkCount.flops(n, new java.util.ArrayList<>())).sum();
            assertEquals(batch * (16 * 64 * 64 + 32 * 32 * 32), pooling, 1e-6);
            WorkCount count = WorkCount.of(trace);
            assertEquals(List.of(), count.uncounted(), "every op of the CNN has a rule");
            assertTrue(count.flops() >= batch * (conv1 + conv2 + 2.0 * 32 * 10), "the total holds the convolutions and the head");
        }
    }

    /** An element-wise node's work is its first output's elements: optional outputs are by-products. */
    @Test
    void optionalOutputsAreNotCountedAsWork() {
        OpTrace.Shape x = new OpTrace.Shape("float", new long[] {1, 64, 128});
        OpTrace.NodeRun skipLayerNorm = new OpTrace.NodeRun("ln", "SkipLayerNormalization", "CPUExecutionProvider", true, 1,
                List.of(x, x), List.of(x, new OpTrace.Shape("float", new long[] {1, 64, 1}),
                new OpTrace.Shape("float", new long[] {1, 64, 1}), x));
        assertEquals(64 * 128, WorkCount.outputElements(skipLayerNorm), "the residual sum output is not more work");
    }

    /** Pre-packed weights are not in the trace, but are read: K x N at the activations' size, one byte for int8 products. */
    @Test
    void prePackedWeightsAreCountedAsRead() {
        OpTrace.Shape x = new OpTrace.Shape("float", new long[] {1, 64, 128});
        OpTrace.Shape y = new OpTrace.Shape("float", new long[] {1, 64, 512});
        OpTrace.NodeRun packed = new OpTrace.NodeRun("up", "MatMul", "CPUExecutionProvider", true, 1, List.of(x), List.of(y));
        assertEquals(4.0 * 128 * 512, WorkCount.unlistedWeightBytes(packed));
        assertEquals(4.0 * (64 * 128 + 64 * 512 + 128 * 512), WorkCount.bytes(packed));
        OpTrace.NodeRun int8 = new OpTrace.NodeRun("up8", "DynamicQuantizeMatMul", "CPUExecutionProvider", true, 1,
                List.of(x, new OpTrace.Shape("float", new long[] {512})), List.of(y));
        assertEquals(128.0 * 512, WorkCount.unlistedWeightBytes(int8));
        assertEquals(2.0 * 64 * 512 * 128, WorkCount.flops(int8, new java.util.ArrayList<>()), "an integer product is a product");
        OpTrace.Shape q = new OpTrace.Shape("float", new long[] {1, 4, 64, 32});
        OpTrace.Shape kt = new OpTrace.Shape("float", new long[] {1, 4, 32, 64});
        OpTrace.NodeRun attention = new OpTrace.NodeRun("qk", "FusedMatMul", "CPUExecutionProvider", true, 1, List.of(q, kt),
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
        OpTrace trace = OpTrace.afterWarmup(OrtProfile.read(file), 1);
        assertEquals(4, trace.passes());
        assertEquals(List.of("mm", "sm"), trace.nodes().stream().map(OpTrace.NodeRun::name).toList());
        assertEquals(12, trace.nodes().get(0).durationUs(), "median of 10, 12, 400; the warm-up's 900 is dropped");
        assertEquals(50, trace.nodes().get(1).durationUs(), "median of 50, 48, 52");
        assertEquals(1000, trace.passUs());
    }

    /**
     * Two nodes of one pass with the same (here empty) name, as a Loop body's nodes or an exporter's unnamed nodes are:
     * each keeps its own median, by its place among the nodes of that name; pooled by name, both would get the median
     * of all six durations. A trace without model_run events is refused rather than counted once per pass.
     */
    @Test
    void nodesWithTheSameNameKeepTheirOwnMedians() throws IOException {
        StringBuilder json = new StringBuilder("[");
        long ts = 0;
        for (int pass = 0; pass < 4; pass++) {
            json.append(String.format(Locale.ROOT, "{\"cat\":\"Session\",\"name\":\"model_run\",\"ts\":%d,\"dur\":%d},", ts, 1000));
            json.append(node(ts + 10, "", "MatMul", 100 + pass)).append(',').append(node(ts + 500, "", "Softmax", 10 + pass)).append(',');
            ts += 2000;
        }
        json.setLength(json.length() - 1);
        OpTrace trace = OpTrace.afterWarmup(OrtProfile.read(Files.writeString(dir.resolve("same-names.json"), json.append(']').toString())), 1);
        assertEquals(2, trace.nodes().size());
        assertEquals(102, trace.nodes().get(0).durationUs(), "the MatMul's own median of 101, 102, 103");
        assertEquals(12, trace.nodes().get(1).durationUs(), "the Softmax's own median of 11, 12, 13");
        Path noRuns = Files.writeString(dir.resolve("no-runs.json"), "[" + node(10, "mm", "MatMul", 5) + "]");
        io.inferbench.BenchmarkException e = org.junit.jupiter.api.Assertions.assertThrows(io.inferbench.BenchmarkException.class,
                () -> OpTrace.afterWarmup(OrtProfile.read(noRuns), 1));
        assertTrue(e.getMessage().contains("no model_run events"), e.getMessage());
    }

    private static String node(long ts, String name, String op, double dur) {
        return String.format(Locale.ROOT, "{\"cat\":\"Node\",\"name\":\"%s_kernel_time\",\"ts\":%d,\"dur\":%.0f,\"args\":"
                + "{\"op_name\":\"%s\",\"provider\":\"CPUExecutionProvider\",\"input_type_shape\":[{\"float\":[1,8]}],"
                + "\"output_type_shape\":[{\"float\":[1,8]}]}}", name, ts, dur, op);
    }

    private static OpTrace.NodeRun node(String name, String op, String provider, double us) {
        OpTrace.Shape shape = new OpTrace.Shape("float", new long[] {1, 64, 128});
        return new OpTrace.NodeRun(name, op, provider, provider.startsWith("CPU"), us, List.of(shape, shape), List.of(shape));
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

    /**
     * ONNX Runtime without CUDA profiling: each CUDA node's recorded time is its launch (10 us), the pass 1,000 us. A
     * 5 us shape node on the CPU is 0.5% of the pass, accepted; against the summed kernel times (55 us) it would be 9%
     * and refused. The op shares are marked as launch times, with no rates.
     */
    @Test
    void cudaLaunchTimesAreNotTakenForDeviceTime() {
        OpTrace trace = new OpTrace(List.of(node("shape_1", "Shape", "CPUExecutionProvider", 5),
                node("matmul_q", "MatMul", "CUDAExecutionProvider", 10), node("matmul_k", "MatMul", "CUDAExecutionProvider", 10),
                node("matmul_v", "MatMul", "CUDAExecutionProvider", 10), node("softmax", "Softmax", "CUDAExecutionProvider", 10),
                node("gelu", "Gelu", "CUDAExecutionProvider", 10)), 1000, 2);
        assertTrue(trace.kernelTimesAreLaunches());
        Placement.CpuPlacement placement = Placement.of(trace);
        assertEquals(0.5, placement.cpuSharePercent(), 1e-9);
        assertTrue(placement.acceptable(), placement.toString());
        List<io.inferbench.results.ProfileResult.OpShare> shares = ProfileRunner.opShares(trace, RooflineTest.PEAKS,
                io.inferbench.results.ProfileResult.RooflineThresholds.DEFAULTS);
        assertTrue(shares.stream().allMatch(o -> o.launchTimes() && o.flopsPercentOfPeak() == null), shares.toString());
        OpTrace profiled = new OpTrace(List.of(node("shape_1", "Shape", "CPUExecutionProvider", 5),
                node("matmul_q", "MatMul", "CUDAExecutionProvider", 900)), 1000, 2);
        assertFalse(profiled.kernelTimesAreLaunches(), "device times that fill the pass are device times");
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

    /** Each product's FLOPs go under its own precision's roof; element-wise work stays under float32. */
    @Test
    void productsAreCountedUnderTheirOwnPrecision() {
        OpTrace.Shape a32 = new OpTrace.Shape("float", new long[] {4, 8});
        OpTrace.Shape a16 = new OpTrace.Shape("float16", new long[] {4, 8});
        OpTrace.Shape a8 = new OpTrace.Shape("uint8", new long[] {4, 8});
        OpTrace.Shape w8 = new OpTrace.Shape("int8", new long[] {8, 2});
        OpTrace.Shape out = new OpTrace.Shape("float", new long[] {4, 2});
        List<OpTrace.NodeRun> nodes = List.of(
                new OpTrace.NodeRun("q", "MatMulInteger", "CPUExecutionProvider", true, 1, List.of(a8, w8), List.of(out)),
                new OpTrace.NodeRun("h", "MatMul", "CUDAExecutionProvider", false, 1, List.of(a16, new OpTrace.Shape("float16", new long[] {8, 2})), List.of(out)),
                new OpTrace.NodeRun("f", "MatMul", "CPUExecutionProvider", true, 1, List.of(a32, new OpTrace.Shape("float", new long[] {8, 2})), List.of(out)),
                new OpTrace.NodeRun("g", "Gelu", "CPUExecutionProvider", true, 1, List.of(out), List.of(out)));
        WorkCount count = WorkCount.of(new OpTrace(nodes, 4, 1));
        double product = 2.0 * 4 * 2 * 8;
        assertEquals(java.util.Map.of("int8", product, "fp16", product, "fp32", product + 8 * 8), count.flopsByPrecision());
        assertEquals(3 * product + 64, count.flops());
    }
}
