package io.inferbench.engine.onnxruntime;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import io.inferbench.BenchmarkException;
import io.inferbench.inputs.CacheInput;
import io.inferbench.inputs.DecoderLayout;
import io.inferbench.inputs.DecoderPlanner;
import io.inferbench.inputs.Dim;
import io.inferbench.model.ExportConfig;
import io.inferbench.model.ExportFolder;

import java.util.ArrayList;
import java.util.List;

/** What an export folder's graphs must agree on before its decoder opens: the refusals, with the file and the fix. */
final class ExportChecks {
    private ExportChecks() {
    }

/**
 * Refuses an export folder whose graphs are not what it says: a merged decoder without its branch flag, or a
 * {@code config.json} whose layers, heads or (fixed) vocabulary differ from the graphs'.
 */
static void checkExport(ExportFolder export, DecoderLayout layout, List<Dim> logits) {
    if (export.decoder().getFileName().toString().equals(ExportFolder.MERGED) && layout.branchFlag() == null) {
        throw new BenchmarkException(export.decoder() + " is named as optimum names a merged decoder, but has no "
                + DecoderPlanner.BRANCH_FLAG + " input to choose its branch: generation would not know which one it "
                + "times. Rename it model.onnx if it is one graph with its cache in and out, or export it again");
    }
    ExportConfig config = export.config();
    if (config == null) {
        return;
    }
    List<String> differences = new ArrayList<>();
    long selfCaches = layout.cache().stream().filter(c -> !c.cross()).count();
    if (config.layers() != null && selfCaches != 2L * config.layers()) {
        differences.add("it gives " + config.layers() + " layers, so " + 2 * config.layers() + " key and value caches, "
                + "and the graph takes " + selfCaches);
    }
    if (config.kvHeads() != null) {
        for (CacheInput cache : layout.cache()) {
            if (cache.sizes().size() == 4 && cache.positionAxis() == 2 && cache.sizes().get(1) > 0
                    && cache.sizes().get(1) != config.kvHeads().longValue()) {
                differences.add("it gives " + config.kvHeads() + " key/value heads, and " + cache.past() + " is "
                        + cache.describe());
                break;
            }
        }
    }
    Dim vocab = logits.isEmpty() ? null : logits.get(logits.size() - 1);
    if (config.vocabSize() != null && vocab != null && vocab.isFixed() && vocab.size() != config.vocabSize()) {
        differences.add("it gives vocab_size " + config.vocabSize() + ", and the logits are " + logits);
    }
    if (!differences.isEmpty()) {
        throw configDisagrees(config, differences);
    }
}

/**
 * Refuses an encoder whose output the first decoder pass cannot take as {@code encoder_hidden_states}: a rank or a
 * fixed hidden size that differs (an encoder of another model, or another export's).
 */
static void checkEncoderFits(ExportFolder export, OrtSession encoder, NodeInfo states) throws OrtException {
    String output = encoder.getOutputNames().contains("last_hidden_state") ? "last_hidden_state"
            : encoder.getOutputNames().iterator().next();
    if (!(encoder.getOutputInfo().get(output).getInfo() instanceof TensorInfo made) || !(states.getInfo() instanceof TensorInfo taken)) {
        return;
    }
    long[] a = made.getShape();
    long[] b = taken.getShape();
    boolean fits = a.length == b.length && (a[a.length - 1] < 0 || b[b.length - 1] < 0 || a[a.length - 1] == b[b.length - 1]);
    if (!fits) {
        throw new BenchmarkException(export.encoder() + "'s output " + output + " " + OnnxRuntimeSession.dims(made) + " does not "
                + "fit " + export.decoder() + "'s " + DecoderLayout.ENCODER_STATES + " " + OnnxRuntimeSession.dims(taken)
                + ": the encoder is another model's. Export the encoder and the decoders together, in one optimum export");
    }
}

static BenchmarkException configDisagrees(ExportConfig config, List<String> differences) {
    return new BenchmarkException(config.file() + " does not describe the graphs beside it: " + String.join("; ", differences)
            + ". The graphs are what runs: export the folder again, or fix or remove the config.json");
}
}
