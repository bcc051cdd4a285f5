package io.inferbench.roofline;

import io.inferbench.engine.OpTrace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The work of one pass, counted from the shapes its kernels ran with (an engine's op profile, so the batch and
 * sequence length are bound and fusions are as executed):
 *
 * <ul>
 *   <li><b>FLOPs</b>: matrix products ({@code MatMul}, {@code FusedMatMul}, {@code Gemm}, {@code MatMulInteger}) at
 *       {@code 2 * M * N * K} times their batch dimensions, the attention products included; convolutions
 *       ({@code Conv}, {@code FusedConv}) at {@code 2 * K} per output element, where K is one filter's size
 *       ({@code C_in / groups * kH * kW}: the weight's elements over its output channels), plus one per output element
 *       for a bias; pooling at one per input element (each is read into one comparison or sum); element-wise and
 *       normalising ops at a fixed count per output element (below); data movement ({@code Gather}, {@code Reshape},
 *       {@code Transpose}, casts) at 0. An op without a rule is listed in {@code uncounted}, so the total is a floor.</li>
 *   <li><b>Bytes</b>, a simple traffic model: every kernel reads its inputs and writes its outputs once, to and from
 *       memory, with no reuse between kernels through the caches; views ({@code Reshape}, {@code Squeeze},
 *       {@code Unsqueeze}, {@code Flatten}) move nothing, and {@code Gather} reads only the rows it returns. Weights are
 *       read once per use, pre-packed ones included ({@link #unlistedWeightBytes}). On a CPU whose caches hold the
 *       activations and weights this overstates traffic; it is a ceiling.</li>
 * </ul>
 */
public record WorkCount(double flops, double bytes, List<String> uncounted, Map<String, Double> flopsByPrecision) {

    public static final String FP32 = "fp32";
    public static final String INT8 = "int8";
    public static final String FP16 = "fp16";

    /** FLOPs per output element, by op type: a fixed, stated cost for each non-product kernel. */
    static final java.util.Map<String, Integer> PER_ELEMENT = java.util.Map.ofEntries(
            java.util.Map.entry("Add", 1), java.util.Map.entry("Sub", 1), java.util.Map.entry("Mul", 1),
            java.util.Map.entry("Div", 1), java.util.Map.entry("Sqrt", 1), java.util.Map.entry("Pow", 1),
            java.util.Map.entry("Relu", 1), java.util.Map.entry("Tanh", 4), java.util.Map.entry("Sigmoid", 4),
            java.util.Map.entry("Erf", 4), java.util.Map.entry("Gelu", 8), java.util.Map.entry("FastGelu", 8),
            java.util.Map.entry("BiasGelu", 9), java.util.Map.entry("Softmax", 5),
            java.util.Map.entry("LayerNormalization", 8), java.util.Map.entry("SkipLayerNormalization", 10),
            java.util.Map.entry("DequantizeLinear", 2), java.util.Map.entry("QuantizeLinear", 3),
            java.util.Map.entry("DynamicQuantizeLinear", 4));
    /**
     * Matrix products, counted at 2·M·N·K: ONNX's and the {@code com.microsoft} domain's fused forms, float and integer
     * ({@code DynamicQuantizeMatMul} and {@code MatMulIntegerToFloat} are what an engine makes of dynamic quantization).
     */
    static final Set<String> PRODUCTS = Set.of("MatMul", "FusedMatMul", "Gemm", "FusedGemm", "MatMulInteger",
            "DynamicQuantizeMatMul", "MatMulIntegerToFloat");
    /** Integer products, whose weights are one byte per element. */
    static final Set<String> INTEGER_PRODUCTS = Set.of("MatMulInteger", "DynamicQuantizeMatMul", "MatMulIntegerToFloat");
    /** Ops that move or reshape data and compute nothing. */
    static final Set<String> NO_FLOPS = Set.of("Gather", "Reshape", "Transpose", "Squeeze", "Unsqueeze", "Flatten", "Cast",
            "Identity", "Shape", "Concat", "Slice", "Expand", "Constant", "ConstantOfShape", "ReorderInput", "ReorderOutput",
            "Pad", "Tile", "Split");
    /** Convolutions: ONNX's, and the {@code com.microsoft} domain's with a fused activation. */
    static final Set<String> CONVOLUTIONS = Set.of("Conv", "FusedConv");
    /** Pooling: one comparison or sum per input element. */
    static final Set<String> POOLING = Set.of("MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "LpPool");
    static final Set<String> VIEWS = Set.of("Reshape", "Squeeze", "Unsqueeze", "Flatten", "Identity", "Shape", "Constant");

    /**
     * The pass's work, its FLOPs split by the roof they run under ({@link #precision}): a mixed graph (an int8 model's
     * float32 attention products and normalisations beside its integer projections) is judged against each part's roof.
     */
    public static WorkCount of(OpTrace trace) {
        double flops = 0;
        double bytes = 0;
        List<String> uncounted = new ArrayList<>();
        Map<String, Double> byPrecision = new TreeMap<>();
        for (OpTrace.NodeRun node : trace.nodes()) {
            double f = flops(node, uncounted);
            flops += f;
            bytes += bytes(node);
            if (f > 0) {
                byPrecision.merge(precision(node), f, Double::sum);
            }
        }
        return new WorkCount(flops, bytes, uncounted.stream().distinct().toList(), Map.copyOf(byPrecision));
    }

    /**
     * The roof a node's FLOPs run under: {@link #INT8} for an integer product, {@link #FP16} for a product whose first
     * operand is float16 or bfloat16, {@link #FP32} for everything else. Element-wise and normalising work counts under
     * float32 whatever its type: it is a small share, and vector units, not the product roofs, run it.
     */
    static String precision(OpTrace.NodeRun node) {
        if (INTEGER_PRODUCTS.contains(node.opType())) {
            return INT8;
        }
        if (PRODUCTS.contains(node.opType()) && !node.inputs().isEmpty()) {
            String type = node.inputs().get(0).type();
            if ("float16".equals(type) || "bfloat16".equals(type)) {
                return FP16;
            }
        }
        return FP32;
    }

    static double flops(OpTrace.NodeRun node, List<String> uncounted) {
        String op = node.opType();
        if (PRODUCTS.contains(op)) {
            return matmulFlops(node);
        }
        if (CONVOLUTIONS.contains(op)) {
            return convFlops(node);
        }
        if (POOLING.contains(op)) {
            return node.inputs().isEmpty() ? 0 : node.inputs().get(0).elements();
        }
        if (PER_ELEMENT.containsKey(op)) {
            return (double) PER_ELEMENT.get(op) * outputElements(node);
        }
        if (op.equals("ReduceMean") || op.equals("ReduceSum")) {
            return node.inputs().isEmpty() ? 0 : node.inputs().get(0).elements();
        }
        if (!NO_FLOPS.contains(op)) {
            uncounted.add(op);
        }
        return 0;
    }

    /**
     * 2 * K for every element of the product's output: the output's shape already holds the broadcast batch, M and N
     * (by ONNX's MatMul rules; a 1-D operand's unit dimension is dropped from it). K is A's contracted dimension
     * ({@link #contractedDim}).
     */
    static double matmulFlops(OpTrace.NodeRun node) {
        if (node.outputs().isEmpty() || node.inputs().isEmpty()) {
            return 0;
        }
        return 2.0 * node.outputs().get(0).elements() * contractedDim(node);
    }

    /**
     * K of a product {@code A x B}: a 1-D A is [K]; otherwise A's last dimension, or its second to last when A is
     * transposed ({@code transA} of Gemm and FusedMatMul, which the trace does not carry: seen as A's last dimension
     * being the output's M and its second to last not). M is the output's second to last dimension, or its last when
     * B is 1-D (its N dropped).
     */
    static long contractedDim(OpTrace.NodeRun node) {
        long[] a = node.inputs().get(0).dims();
        if (a.length == 0) {
            return 1;
        }
        if (a.length == 1) {
            return a[0];
        }
        long[] out = node.outputs().get(0).dims();
        // B is input 1 of every product; an integer product's trace may list a 1-D scale there instead (its B
        // pre-packed), so a 1-D second input means a vector B only for float products.
        boolean vectorB = node.inputs().size() > 1 && node.inputs().get(1).dims().length == 1
                && !INTEGER_PRODUCTS.contains(node.opType());
        long m = out.length == 0 ? 1 : vectorB || out.length == 1 ? out[out.length - 1] : out[out.length - 2];
        long last = a[a.length - 1];
        long secondLast = a[a.length - 2];
        return last == m && secondLast != m ? secondLast : last;
    }

    /**
     * {@code 2 * K} multiply-adds' FLOPs per output element, K = one filter's elements (the weight, input 1, is
     * {@code [C_out, C_in / groups, kH, kW]}: its elements over its first dimension), and one more per output element for
     * a bias (input 2). A fused activation's few FLOPs per element are left out.
     */
    static double convFlops(OpTrace.NodeRun node) {
        if (node.outputs().isEmpty() || node.inputs().size() < 2) {
            return 0;
        }
        long[] weight = node.inputs().get(1).dims();
        if (weight.length == 0 || weight[0] <= 0) {
            return 0;
        }
        double filter = (double) node.inputs().get(1).elements() / weight[0];
        long out = outputElements(node);
        return 2.0 * out * filter + (node.inputs().size() > 2 ? out : 0);
    }

    /**
     * The elements a node computes, for element-wise costs: its first output's. Optional outputs (the mean and
     * inverse deviation of a normalization, SkipLayerNormalization's residual sum) are by-products, not more work.
     */
    static long outputElements(OpTrace.NodeRun node) {
        return node.outputs().isEmpty() ? 0 : node.outputs().get(0).elements();
    }

    static double bytes(OpTrace.NodeRun node) {
        if (VIEWS.contains(node.opType())) {
            return 0;
        }
        double out = node.outputs().stream().mapToDouble(OpTrace.Shape::bytes).sum();
        if (node.opType().equals("Gather")) {
            double indices = node.inputs().size() > 1 ? node.inputs().get(1).bytes() : 0;
            return 2 * out + indices;
        }
        return node.inputs().stream().mapToDouble(OpTrace.Shape::bytes).sum() + out + unlistedWeightBytes(node);
    }

    /**
     * The weights of a product whose profile does not list them: an engine that pre-packs constant weights does so at session
     * creation and its trace then shows only the activations. Such a product still reads its K x N weights once per
     * pass: at the activations' element size, or one byte for an integer product.
     */
    static double unlistedWeightBytes(OpTrace.NodeRun node) {
        if (!PRODUCTS.contains(node.opType()) || node.inputs().isEmpty() || node.outputs().isEmpty()) {
            return 0;
        }
        long[] out = node.outputs().get(0).dims();
        long n = out.length == 0 ? 1 : out[out.length - 1];
        OpTrace.Shape a = node.inputs().get(0);
        long k = contractedDim(node);
        long weights = k * n;
        // Listed when another input is at least K x N: the weights, or a second activation (attention's products).
        boolean listed = node.inputs().stream().skip(1).anyMatch(s -> s.elements() >= weights);
        if (listed || weights <= 0) {
            return 0;
        }
        double elementBytes = INTEGER_PRODUCTS.contains(node.opType()) ? 1 : (double) a.bytes() / Math.max(1, a.elements());
        return weights * elementBytes;
    }
}
