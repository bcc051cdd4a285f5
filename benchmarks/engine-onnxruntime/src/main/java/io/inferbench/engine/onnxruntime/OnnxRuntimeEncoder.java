package io.inferbench.engine.onnxruntime;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import io.inferbench.BenchmarkException;
import io.inferbench.engine.SessionSpec;
import io.inferbench.inputs.InputFill;
import io.inferbench.inputs.InputPlan;
import io.inferbench.inputs.InputPlanner;
import io.inferbench.inputs.InputSpecFile;
import io.inferbench.inputs.PlannedInput;
import io.inferbench.model.ExportFolder;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An encoder-decoder's encoder: its own session, its inputs planned by the any-inputs planner ({@link InputPlanner}:
 * the prompt's ids and a mask of ones for a text encoder; seeded values, a spec or {@code .npy} rows for others, such
 * as Whisper's {@code input_features}, whose swept axis {@code -Dbench.seqAxis} names), made before the clock starts.
 */
final class OnnxRuntimeEncoder {
    final OrtSession session;
    final long startToken;
    private final OrtEnvironment env;
    private final InputPlan plan;
    private final InputFill fill;
    private final String output;
    private final Map<String, OnnxTensor> inputs = new LinkedHashMap<>();
    private OrtSession.Result result;

OnnxRuntimeEncoder(OrtEnvironment env, OrtSession session, SessionSpec spec, ExportFolder export) throws OrtException {
        this.env = env;
        this.session = session;
        InputSpecFile file = spec.inputs().specFile() == null ? null : InputSpecFile.read(spec.inputs().specFile());
        this.plan = InputPlanner.plan(export.encoder().toString(), OnnxRuntimeSession.declaredInputs(session.getInputInfo()),
                spec.inputs(), file);
        this.fill = new InputFill(plan, spec.seed());
        this.output = session.getOutputNames().contains("last_hidden_state") ? "last_hidden_state"
                : session.getOutputNames().iterator().next();
        this.startToken = export.config() != null && export.config().decoderStartTokenId() != null
                ? export.config().decoderStartTokenId() : 0;
    }

    void prepare(long[] promptIds, int batch, int promptLength) {
        finish();
        plan.requireFits(batch, promptLength);
        long[] mask = new long[promptIds.length];
        java.util.Arrays.fill(mask, 1);
        for (PlannedInput input : plan.inputs()) {
            long[] shape = plan.shape(input, batch, promptLength);
            ByteBuffer values = ByteBuffer.allocateDirect(Math.toIntExact(InputPlan.elements(shape) * input.type().bytes()))
                    .order(ByteOrder.nativeOrder());
            fill.write(input, values, batch, promptLength, promptIds, mask);
            values.rewind();
            try {
                inputs.put(input.name(), OnnxTensor.createTensor(env, values, shape, OnnxRuntimeSession.onnxType(input.type())));
            } catch (OrtException e) {
                throw new BenchmarkException("ONNX Runtime could not make the encoder's input " + input.name() + ": "
                        + e.getMessage(), e);
            }
        }
    }

    OnnxTensor run() {
        try {
            result = session.run(inputs);
            return (OnnxTensor) result.get(output).orElseThrow();
        } catch (OrtException e) {
            throw new BenchmarkException("ONNX Runtime failed the encoder's pass: " + e.getMessage(), e);
        }
    }

    void finish() {
        inputs.values().forEach(OnnxTensor::close);
        inputs.clear();
        if (result != null) {
            result.close();
            result = null;
        }
    }
}
