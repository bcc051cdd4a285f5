package io.inferbench.engine.onnxruntime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.inferbench.BenchmarkException;
import io.inferbench.engine.OpTrace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * ONNX Runtime's profile file, as its profiler writes it ({@code SessionOptions.enableProfiling}): a Chrome-trace JSON
 * array whose {@code Node} events ({@code <node>_kernel_time}) carry the op type, the execution provider, the duration
 * in microseconds and the input and output shapes the kernel ran with. Passes are {@code model_run} session events; a
 * node belongs to the pass whose time span holds it. What a pass's kernels mean is the core's ({@link OpTrace}).
 */
public final class OrtProfile {
    /** The provider ONNX Runtime names for the host CPU. */
    public static final String CPU_PROVIDER = "CPUExecutionProvider";

    private OrtProfile() {
    }

    /** Every pass of the profile at {@code file}, in order, with the kernels each holds. */
    public static OpTrace.Recorded read(Path file) {
        JsonNode events;
        try {
            events = new ObjectMapper().readTree(file.toFile());
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
        List<List<OpTrace.NodeRun>> perPass = new ArrayList<>();
        runs.forEach(r -> perPass.add(new ArrayList<>()));
        for (JsonNode e : events) {
            if (!"Node".equals(e.path("cat").asText()) || !e.path("name").asText().endsWith("_kernel_time")) {
                continue;
            }
            double ts = e.path("ts").asDouble();
            JsonNode args = e.path("args");
            String name = e.path("name").asText();
            String provider = args.path("provider").asText();
            OpTrace.NodeRun node = new OpTrace.NodeRun(name.substring(0, name.length() - "_kernel_time".length()),
                    args.path("op_name").asText(), provider, CPU_PROVIDER.equals(provider), e.path("dur").asDouble(),
                    shapes(args.path("input_type_shape")), shapes(args.path("output_type_shape")));
            for (int i = 0; i < runs.size(); i++) {
                if (ts >= runs.get(i)[0] && ts <= runs.get(i)[1]) {
                    perPass.get(i).add(node);
                }
            }
        }
        return new OpTrace.Recorded(runs.stream().map(r -> r[1] - r[0]).toList(), perPass);
    }

    private static List<OpTrace.Shape> shapes(JsonNode list) {
        List<OpTrace.Shape> shapes = new ArrayList<>();
        for (JsonNode entry : list) {
            Iterator<Map.Entry<String, JsonNode>> fields = entry.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                long[] dims = new long[f.getValue().size()];
                for (int i = 0; i < dims.length; i++) {
                    dims[i] = f.getValue().get(i).asLong();
                }
                shapes.add(new OpTrace.Shape(f.getKey(), dims));
            }
        }
        return shapes;
    }
}
