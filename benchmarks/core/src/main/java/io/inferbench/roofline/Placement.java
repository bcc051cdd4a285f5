package io.inferbench.roofline;

import io.inferbench.Text;
import io.inferbench.engine.OpTrace;

import java.util.List;
import java.util.Set;

/**
 * Which nodes of a CUDA session ran on the CPU, and whether that is acceptable. An engine that places a model node by
 * node (its CUDA provider beside its CPU one) puts shape computations ({@code Shape}, and the {@code Gather},
 * {@code Unsqueeze}, {@code Concat} that work on shape tensors) on the CPU by design; refusing every CPU node would refuse
 * nearly every transformer exported with dynamic axes. The rule: a session is refused when a <em>compute</em> node runs on the CPU, or when the CPU nodes' time is
 * above {@value #MAX_CPU_SHARE_PERCENT}% of the synchronized pass.
 */
public final class Placement {
    public static final double MAX_CPU_SHARE_PERCENT = 1.0;
    /** Ops whose work is the model's arithmetic: on the CPU in a CUDA session, they would be timed as CPU work. */
    public static final Set<String> COMPUTE_OPS = Set.of("MatMul", "FusedMatMul", "Gemm", "MatMulInteger", "Conv", "ConvTranspose",
            "Attention", "MultiHeadAttention", "QAttention", "LayerNormalization", "SkipLayerNormalization", "Softmax",
            "BiasGelu", "Gelu", "FastGelu", "Erf", "DynamicQuantizeMatMul", "QOrderedMatMul", "EmbedLayerNormalization",
            "Einsum", "BatchNormalization", "InstanceNormalization", "GroupNorm", "RotaryEmbedding", "GroupQueryAttention");

    private Placement() {
    }

    /** What ran on the CPU: node names with their op, and the CPU's share of the kernel time (percent). */
    public record CpuPlacement(List<String> cpuNodes, List<String> cpuComputeNodes, double cpuSharePercent) {
        public boolean acceptable() {
            return cpuComputeNodes.isEmpty() && cpuSharePercent <= MAX_CPU_SHARE_PERCENT;
        }

        /** Why the session is refused, naming the nodes; null when it is acceptable. */
        public String refusal() {
            if (acceptable()) {
                return null;
            }
            return Text.f("%s of the pass ran on the CPU inside a CUDA session (%.1f%% of the pass, limit %.0f%%)%s. Those "
                            + "nodes would be timed as CPU work in a GPU number; export the model so that the CUDA provider has "
                            + "kernels for them, or pass -Dbench.allowCpuFallback=true to measure it anyway (recorded)",
                    cpuComputeNodes.isEmpty() ? "Part" : "Compute nodes " + cpuComputeNodes, cpuSharePercent, MAX_CPU_SHARE_PERCENT,
                    cpuComputeNodes.isEmpty() ? ": " + cpuNodes : "");
        }
    }

    /**
     * The CPU nodes' share is of the synchronized pass: a CPU kernel runs in the pass's time on the host, while a CUDA
     * node's recorded time may be only its launch ({@link OpTrace#kernelTimesAreLaunches}), so a share of the summed
     * kernel times would overstate the CPU's part many times over.
     */
    public static CpuPlacement of(OpTrace trace) {
        List<OpTrace.NodeRun> cpu = trace.nodes().stream().filter(OpTrace.NodeRun::onHost).toList();
        double total = trace.passUs() > 0 ? trace.passUs() : trace.kernelUs();
        double cpuUs = cpu.stream().mapToDouble(OpTrace.NodeRun::durationUs).sum();
        return new CpuPlacement(cpu.stream().map(n -> n.name() + " (" + n.opType() + ")").toList(),
                cpu.stream().filter(n -> COMPUTE_OPS.contains(n.opType())).map(n -> n.name() + " (" + n.opType() + ")").toList(),
                total > 0 ? 100 * cpuUs / total : 0);
    }
}
