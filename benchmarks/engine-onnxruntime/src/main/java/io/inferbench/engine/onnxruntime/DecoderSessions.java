package io.inferbench.engine.onnxruntime;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import io.inferbench.BenchmarkException;
import io.inferbench.engine.SessionSpec;
import io.inferbench.inputs.DecoderLayout;
import io.inferbench.inputs.DecoderPlanner;
import io.inferbench.inputs.Dim;
import io.inferbench.inputs.KvPair;
import io.inferbench.model.ExportFolder;
import io.inferbench.model.ModelSource;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sessions of a decoder on ONNX Runtime, opened before anything is timed: the steps' graph, a split export's prefill
 * graph and an encoder-decoder's encoder; closed together if opening fails.
 */
final class DecoderSessions {
    OrtSession steps;
    OrtSession prefill;
    OrtSession encoder;

    void close() {
        for (OrtSession s : new OrtSession[] {steps, prefill, encoder}) {
            try {
                if (s != null) {
                    s.close();
                }
            } catch (OrtException ignored) {
                // the first error is the one to report
            }
        }
    }

    /**
     * Opens every session of the model and plans its feeding, refusing what does not agree; with a {@code traceDir},
     * every session profiles its passes op by op into it ({@link OnnxRuntimeDecoder#endProfiling}).
     */
    static OnnxRuntimeDecoder open(SessionSpec spec, List<KvPair> pairs, Path traceDir) {
        OrtEnvironment env = OnnxRuntimeEngine.environment();
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        DecoderSessions sessions = new DecoderSessions();
        ExportFolder export = spec.source() instanceof ModelSource.OnnxFolder folder ? folder.export()
                : spec.source() instanceof ModelSource.BuiltinSeq2Seq ? ExportFolder.read(spec.modelFile()) : null;
        try {
            String provider = OnnxRuntimeEngine.configure(options, spec);
            if (traceDir != null) {
                // one prefix per session: ONNX Runtime names a profile by its prefix and the second it starts
                java.nio.file.Files.createDirectories(traceDir);
                options.enableProfiling(traceDir.resolve("ort-decoder-steps").toString());
            }
            Path steps = export == null ? spec.modelFile() : export.split() ? export.withPast() : export.decoder();
            sessions.steps = OnnxRuntimeEngine.createSession(env, options, spec, steps);
            Map<String, List<Dim>> outputs = outputs(sessions.steps);
            if (export != null && export.split()) {
                if (traceDir != null) {
                    options.enableProfiling(traceDir.resolve("ort-decoder-prefill").toString());
                }
                sessions.prefill = OnnxRuntimeEngine.createSession(env, options, spec, export.decoder());
            }
            if (export != null && export.encoder() != null) {
                if (traceDir != null) {
                    options.enableProfiling(traceDir.resolve("ort-encoder").toString());
                }
                sessions.encoder = OnnxRuntimeEngine.createSession(env, options, spec, export.encoder());
            }
            DecoderLayout layout = DecoderPlanner.plan(name(spec, steps),
                    OnnxRuntimeSession.declaredInputs(sessions.steps.getInputInfo()), outputs, pairs, spec.inputs().dims(),
                    sessions.prefill == null ? Map.of() : outputs(sessions.prefill));
            DecoderLayout prefillLayout = layout;
            if (sessions.prefill != null) {
                prefillLayout = DecoderPlanner.planPrefill(ExportFolder.DECODER,
                        OnnxRuntimeSession.declaredInputs(sessions.prefill.getInputInfo()), outputs(sessions.prefill), layout,
                        ExportFolder.WITH_PAST);
            }
            if (export != null) {
                ExportChecks.checkExport(export, layout, outputs.get(layout.logits()));
            }
            if (sessions.encoder != null && prefillLayout.encoderStates() != null) {
                OrtSession firstPass = sessions.prefill != null ? sessions.prefill : sessions.steps;
                ExportChecks.checkEncoderFits(export, sessions.encoder, firstPass.getInputInfo().get(prefillLayout.encoderStates()));
            }
            if ((layout.encoderStates() != null || prefillLayout.encoderStates() != null) && sessions.encoder == null) {
                throw new BenchmarkException(name(spec, steps) + " takes " + DecoderLayout.ENCODER_STATES + ": it is an "
                        + "encoder-decoder's decoder, and runs with its encoder. Give the export folder that holds "
                        + ExportFolder.ENCODER + " beside it");
            }
            return new OnnxRuntimeDecoder(env, options, sessions, provider, layout, prefillLayout,
                    outputs.get(layout.logits()).size(), spec, export);
        } catch (OrtException | java.io.IOException | RuntimeException e) {
            sessions.close();
            options.close();
            throw e instanceof BenchmarkException be ? be
                    : new BenchmarkException("Could not read the decoder's inputs and outputs: " + e.getMessage(), e);
        }
    }

    private static String name(SessionSpec spec, Path file) {
        return spec.source() instanceof ModelSource.OnnxFolder || spec.source() instanceof ModelSource.BuiltinSeq2Seq
                ? file.toString() : spec.source().name();
    }

    private static Map<String, List<Dim>> outputs(OrtSession session) throws OrtException {
        Map<String, List<Dim>> outputs = new LinkedHashMap<>();
        for (Map.Entry<String, NodeInfo> output : session.getOutputInfo().entrySet()) {
            outputs.put(output.getKey(), output.getValue().getInfo() instanceof TensorInfo t ? OnnxRuntimeSession.dims(t) : List.of());
        }
        return outputs;
    }
}
