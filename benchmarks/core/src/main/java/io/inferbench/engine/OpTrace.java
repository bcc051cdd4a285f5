package io.inferbench.engine;

import io.inferbench.BenchmarkException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Profiled passes, op by op, whatever engine's profiler recorded them: each kernel run with its op type, where it ran,
 * its duration in microseconds and the input and output shapes it ran with. The engine reads its own profiler's file
 * ({@link InferenceEngine#readProfile}) into the passes it holds ({@link Recorded}); this keeps the passes after the
 * warm-up, each node's duration its median over them and the pass time the median pass, so one preempted kernel on a
 * shared machine does not become "the" profile. Shapes and order are the last pass's.
 *
 * @param passes the number of passes in the file, warm-up included
 */
public record OpTrace(List<NodeRun> nodes, double passUs, int passes) {

    /** A tensor as the profiler lists it: element type and dimensions. */
    public record Shape(String type, long[] dims) {
        public long elements() {
            long n = 1;
            for (long d : dims) {
                n *= Math.max(d, 0);
            }
            return n;
        }

        public long bytes() {
            return elements() * switch (type) {
                case "double", "int64", "uint64" -> 8;
                case "float16", "bfloat16", "int16", "uint16" -> 2;
                case "int8", "uint8", "bool" -> 1;
                default -> 4;
            };
        }
    }

    /**
     * One kernel run: node name, op type, the engine's name for where it ran ({@code provider}), whether that is the host
     * CPU ({@code onHost}), microseconds, and its tensors.
     */
    public record NodeRun(String name, String opType, String provider, boolean onHost, double durationUs, List<Shape> inputs,
                          List<Shape> outputs) {
    }

    /**
     * The passes one profile recorded, in the order they ran, as an engine read them from its own profiler's output
     * ({@link InferenceEngine#readProfile}): each pass's wall time and the kernels that ran inside it.
     *
     * @param passUs each pass's wall time in microseconds
     * @param passes each pass's node runs, in the order they ran
     */
    public record Recorded(List<Double> passUs, List<List<NodeRun>> passes) {
        public Recorded {
            if (passUs.size() != passes.size()) {
                throw new IllegalArgumentException(passUs.size() + " pass times for " + passes.size() + " passes");
            }
            passUs = List.copyOf(passUs);
            passes = passes.stream().map(List::copyOf).toList();
        }
    }

    /**
     * One pass of a profile: the {@code pass}-th from 0 (a generation's prefill is its first, its last step its last),
     * its kernels' own times.
     */
    public static OpTrace pass(Recorded recorded, int pass, Object source) {
        if (pass >= recorded.passes().size()) {
            throw new BenchmarkException(source + " holds " + recorded.passes().size() + " passes; pass " + pass + " was asked for");
        }
        return of(recorded, pass, pass + 1);
    }

    /** The passes after the first {@code warmupPasses}; the last pass alone when the profile holds no more than those. */
    public static OpTrace afterWarmup(Recorded recorded, int warmupPasses) {
        int n = recorded.passes().size();
        return n > warmupPasses ? of(recorded, warmupPasses, n) : of(recorded, Math.max(0, n - 1), n);
    }

    private static OpTrace of(Recorded recorded, int from, int to) {
        List<List<NodeRun>> perPass = recorded.passes().subList(from, to);
        // A node is keyed by its name and which run of that name it is within the pass: empty or repeated names, and the
        // nodes of a Loop or Scan body run once per iteration, stay apart instead of pooling into one median.
        Map<String, List<Double>> durations = new HashMap<>();
        for (List<NodeRun> pass : perPass) {
            Map<String, Integer> seen = new HashMap<>();
            for (NodeRun n : pass) {
                durations.computeIfAbsent(key(n, seen), k -> new ArrayList<>()).add(n.durationUs());
            }
        }
        Map<String, Integer> seenLast = new HashMap<>();
        List<NodeRun> nodes = perPass.get(perPass.size() - 1).stream().map(n -> new NodeRun(n.name(), n.opType(), n.provider(),
                n.onHost(), median(durations.get(key(n, seenLast))), n.inputs(), n.outputs())).toList();
        return new OpTrace(nodes, median(recorded.passUs().subList(from, to)), recorded.passes().size());
    }

    /** The node's name and its occurrence number among the pass's nodes of that name so far. */
    private static String key(NodeRun node, Map<String, Integer> seen) {
        int occurrence = seen.merge(node.name(), 1, Integer::sum);
        return node.name() + "#" + occurrence;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * Whether the device nodes' times are the CPU side of asynchronous launches rather than their run time: an engine's
     * profiler built without CUDA profiling records a CUDA kernel's time as its launch, so the nodes of a pass sum to far
     * less than the synchronized pass. Seen here as a trace with device (not host) nodes whose kernel times sum to under
     * {@value #LAUNCH_ONLY_SHARE} of the pass.
     */
    public boolean kernelTimesAreLaunches() {
        boolean device = nodes.stream().anyMatch(n -> !n.onHost());
        return device && passUs > 0 && kernelUs() < LAUNCH_ONLY_SHARE * passUs;
    }

    /** Kernel times summing to under this share of the pass are launches, not device time. */
    public static final double LAUNCH_ONLY_SHARE = 0.5;

    /** Total kernel time of the pass, in microseconds (the sum of its nodes). */
    public double kernelUs() {
        return nodes.stream().mapToDouble(NodeRun::durationUs).sum();
    }
}
