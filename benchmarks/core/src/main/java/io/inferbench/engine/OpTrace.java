package io.inferbench.roofline;

import com.fasterxml.jackson.databind.JsonNode;
import io.inferbench.BenchmarkException;
import io.inferbench.results.Json;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Profiled passes, as ONNX Runtime's profiler writes them ({@code SessionOptions.enableProfiling}): a Chrome-trace JSON
 * array whose {@code Node} events ({@code <node>_kernel_time}) carry the op type, the execution provider, the duration
 * in microseconds and the input and output shapes the kernel ran with. Passes are {@code model_run} session events; a
 * node belongs to the pass whose time span holds it. The first {@code warmupPasses} are dropped; of the rest, each
 * node's duration is its median over them and the pass time is the median pass, so one preempted kernel on a shared
 * machine does not become "the" profile. Shapes and order are the last pass's.
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

    /** One kernel run: node name, op type, provider, microseconds, and its tensors. */
    public record NodeRun(String name, String opType, String provider, double durationUs, List<Shape> inputs, List<Shape> outputs) {
    }

    /** As {@link #parse(Path, int)} with one warm-up pass: what a trace with at least two passes needs. */
    public static OpTrace parse(Path file) {
        return parse(file, 1);
    }

    /**
     * One pass of a profile: the {@code pass}-th {@code model_run} from 0 (a generation's prefill is its first, its last
     * step its last), its kernels' own times.
     */
    public static OpTrace parsePass(Path file, int pass) {
        return parse(file, runs -> {
            if (pass >= runs.size()) {
                throw new BenchmarkException(file + " holds " + runs.size() + " passes; pass " + pass + " was asked for");
            }
            return runs.subList(pass, pass + 1);
        });
    }

    public static OpTrace parse(Path file, int warmupPasses) {
        return parse(file, runs -> runs.size() > warmupPasses ? runs.subList(warmupPasses, runs.size())
                : runs.subList(Math.max(0, runs.size() - 1), runs.size()));
    }

    private static OpTrace parse(Path file, java.util.function.UnaryOperator<List<double[]>> keep) {
        JsonNode events;
        try {
            events = Json.mapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new BenchmarkException("Could not read the ONNX Runtime profile " + file + ": " + e.getMessage(), e);
        }
        if (events == null || !events.isArray()) {
            throw new BenchmarkException(file + " is not an ONNX Runtime profile (a JSON array of trace events)");
        }
        List<double[]> runs = new ArrayList<>();
        for (JsonNode e : events) {
            if ("Session".equals(e.path("cat").asText()) && "model_run".equals(e.path("name").asText())) {
                runs.add(new double[] {e.path("ts").asDouble(), e.path("ts").asDouble() + e.path("dur").asDouble()});
            }
        }
        if (runs.isEmpty()) {
            throw new BenchmarkException(file + " has no model_run events, so its kernels cannot be told apart by pass: its "
                    + "work would be counted once per pass it holds. Profile with ONNX Runtime's own profiler "
                    + "(SessionOptions.enableProfiling), which records them");
        }
        List<double[]> kept = keep.apply(runs);
        List<List<NodeRun>> perPass = new ArrayList<>();
        kept.forEach(r -> perPass.add(new ArrayList<>()));
        for (JsonNode e : events) {
            if (!"Node".equals(e.path("cat").asText()) || !e.path("name").asText().endsWith("_kernel_time")) {
                continue;
            }
            double ts = e.path("ts").asDouble();
            JsonNode args = e.path("args");
            String name = e.path("name").asText();
            NodeRun node = new NodeRun(name.substring(0, name.length() - "_kernel_time".length()), args.path("op_name").asText(),
                    args.path("provider").asText(), e.path("dur").asDouble(), shapes(args.path("input_type_shape")),
                    shapes(args.path("output_type_shape")));
            for (int i = 0; i < kept.size(); i++) {
                if (ts >= kept.get(i)[0] && ts <= kept.get(i)[1]) {
                    perPass.get(i).add(node);
                }
            }
        }
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
                median(durations.get(key(n, seenLast))), n.inputs(), n.outputs())).toList();
        return new OpTrace(nodes, median(kept.stream().map(r -> r[1] - r[0]).toList()), runs.size());
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

    private static List<Shape> shapes(JsonNode list) {
        List<Shape> shapes = new ArrayList<>();
        for (JsonNode entry : list) {
            Iterator<Map.Entry<String, JsonNode>> fields = entry.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                long[] dims = new long[f.getValue().size()];
                for (int i = 0; i < dims.length; i++) {
                    dims[i] = f.getValue().get(i).asLong();
                }
                shapes.add(new Shape(f.getKey(), dims));
            }
        }
        return shapes;
    }

    /**
     * Whether the device nodes' times are the CPU side of asynchronous launches rather than their run time: ONNX Runtime
     * built without CUDA profiling records a CUDA kernel's {@code kernel_time} as the launch, so the nodes of a pass sum
     * to far less than the synchronized pass. Seen here as a trace with device (non-CPU) nodes whose kernel times sum to
     * under {@value #LAUNCH_ONLY_SHARE} of the pass.
     */
    public boolean kernelTimesAreLaunches() {
        boolean device = nodes.stream().anyMatch(n -> n.provider() != null && !Placement.CPU.equals(n.provider()));
        return device && passUs > 0 && kernelUs() < LAUNCH_ONLY_SHARE * passUs;
    }

    /** Kernel times summing to under this share of the pass are launches, not device time. */
    static final double LAUNCH_ONLY_SHARE = 0.5;

    /** Total kernel time of the pass, in microseconds (the sum of its nodes). */
    public double kernelUs() {
        return nodes.stream().mapToDouble(NodeRun::durationUs).sum();
    }
}
