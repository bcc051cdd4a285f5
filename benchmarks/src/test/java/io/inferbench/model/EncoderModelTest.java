package io.inferbench.model;

import io.inferbench.TestPaths;
import io.inferbench.engine.Device;
import io.inferbench.engine.Engines;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.onnxruntime.OnnxRuntimeTestAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.FloatBuffer;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generated ONNX model computes what it claims: the same encoder as a plain Java reference, to 1e-4. */
class EncoderModelTest {
    private static final long SEED = 12345L;

    @TempDir
    Path cache;

    @Test
    void onnxModelMatchesReferenceEncoder() {
        ModelResolver resolver = new ModelResolver(cache, SEED);
        ResolvedModel model = resolver.resolve(new ModelSource.Builtin(EncoderPreset.TINY));
        ReferenceEncoder reference = new ReferenceEncoder(EncoderWeights.generate(EncoderPreset.TINY.config(), SEED));

        int[][] shapes = {{1, 8}, {3, 17}};
        try (InferenceSession session = Engines.create("onnxruntime", TestPaths.nativeCache())
                .open(new SessionSpec(model.path(), Device.parse("cpu"), 1, false))) {
            for (int[] shape : shapes) {
                int batch = shape[0];
                int seq = shape[1];
                long[] ids = new java.util.Random(SEED + batch).longs(batch * seq, 0, 30000).toArray();
                session.prepare(batch, seq, ids);
                session.forward();
                FloatBuffer logits = OnnxRuntimeTestAccess.pinnedOutput(session, 0);
                double[][] expected = reference.logits(ids, batch, seq);
                assertEquals(batch * 2, logits.remaining());
                double maxAbs = 0;
                for (int b = 0; b < batch; b++) {
                    for (int label = 0; label < 2; label++) {
                        double diff = Math.abs(logits.get(b * 2 + label) - expected[b][label]);
                        maxAbs = Math.max(maxAbs, Math.abs(expected[b][label]));
                        assertEquals(expected[b][label], logits.get(b * 2 + label), 1e-4,
                                "logit [" + b + "][" + label + "] at batch " + batch + " seq " + seq + " (diff " + diff + ")");
                    }
                }
                assertTrue(maxAbs > 1e-3, "logits should not be trivially zero, max |logit| = " + maxAbs);
            }
        }
    }

    @Test
    void sameSeedGivesSameBytesAndHash(@TempDir Path other) {
        ResolvedModel first = new ModelResolver(cache, SEED).resolve(new ModelSource.Builtin(EncoderPreset.TINY));
        ResolvedModel second = new ModelResolver(other, SEED).resolve(new ModelSource.Builtin(EncoderPreset.TINY));
        ResolvedModel differentSeed = new ModelResolver(other, SEED + 1).resolve(new ModelSource.Builtin(EncoderPreset.TINY));
        assertEquals(first.sha256(), second.sha256());
        assertTrue(!first.sha256().equals(differentSeed.sha256()), "a different seed must give different weights");
    }

    @Test
    void erfMatchesKnownValues() {
        // Abramowitz & Stegun, Table 7.1.
        assertEquals(0.5204998778, ReferenceEncoder.erf(0.5), 2e-7);
        assertEquals(0.8427007929, ReferenceEncoder.erf(1.0), 2e-7);
        assertEquals(-0.9953222650, ReferenceEncoder.erf(-2.0), 2e-7);
        assertArrayEquals(new double[] {0}, new double[] {ReferenceEncoder.erf(0)}, 2e-7);
    }
}
