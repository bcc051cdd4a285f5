package io.inferbench.precision;

import io.inferbench.engine.OpTrace;

import java.util.List;
import java.util.TreeSet;

/**
 * Whether a float16 model really ran in float16. An engine's CPU provider may have no float16 kernel for most ops; rather
 * than refuse the session it inserts casts ({@code InsertedPrecisionFreeCast_*} nodes) and runs those ops in float32,
 * so a "float16" timing would be float32 arithmetic plus casts. A profiled pass shows it: kernels of a float16 model that
 * take float32 inputs, next to inserted casts.
 */
public final class PrecisionCheck {
    /** The prefix of the cast nodes an engine inserts around ops without a float16 kernel. */
    static final String INSERTED_CAST = "InsertedPrecisionFreeCast";

    private PrecisionCheck() {
    }

    /** The op types that ran in float32 behind inserted casts; empty when no casts were inserted. */
    public static List<String> float32Kernels(OpTrace trace) {
        boolean inserted = trace.nodes().stream().anyMatch(n -> n.name().startsWith(INSERTED_CAST));
        if (!inserted) {
            return List.of();
        }
        TreeSet<String> ops = new TreeSet<>();
        for (OpTrace.NodeRun node : trace.nodes()) {
            if (!node.opType().equals("Cast") && node.inputs().stream().anyMatch(s -> s.type().equals("float"))) {
                ops.add(node.opType());
            }
        }
        return List.copyOf(ops);
    }

    /** The refusal for a float16 model that did not run in float16 on {@code device}, or null when it did. */
    public static String refusal(OpTrace trace, String model, String device, String engine) {
        List<String> ops = float32Kernels(trace);
        if (ops.isEmpty()) {
            return null;
        }
        return model + " is a float16 model, but " + engine + " on " + device + " has no float16 kernel for " + ops
                + ": it inserted casts (" + INSERTED_CAST + " nodes) and ran those ops in float32, so its timings would not "
                + "be float16's. Run it on a GPU (-Dbench.device=cuda, with -Pgpu), or "
                + (model.endsWith("-fp16") ? "measure the float32 or int8 variant on the CPU (-Dbench.model="
                + model.replace("-fp16", "") + "," + model.replace("-fp16", "-int8") + ")" : "give the CPU a float32 export");
    }
}
