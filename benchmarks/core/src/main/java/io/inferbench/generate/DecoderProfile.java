package io.inferbench.generate;

import io.inferbench.BenchmarkException;
import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.Engines;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.SessionDefaults;
import io.inferbench.inputs.KvPair;
import io.inferbench.measure.NanoClock;
import io.inferbench.model.ModelSource;
import io.inferbench.engine.OpTrace;
import io.inferbench.roofline.WorkCount;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The work of a user's ONNX decoder's phases, counted as the sweep counts any ONNX model's: one greedy generation of the
 * cell's prompt and batch, profiled op by op on the CPU by the first engine that profiles ops and generates with the
 * model, its prefill's kernels and its last step's counted by {@link WorkCount} (FLOPs from the products' shapes, bytes
 * as every kernel reading its inputs, weights among them, and writing its outputs once).
 *
 * <p><b>The weights' floor.</b> A step reads every weight at least once (the embedding tables but for their gathered
 * rows), so its bytes are checked against the weights' bytes the graph holds as initializers ({@link #weightBytes}):
 * below them, the profile missed kernels, and the count is marked a floor in {@link Counted#note}.
 */
final class DecoderProfile {
    private DecoderProfile() {
    }

    /**
     * @param encode    an encoder-decoder's encoder pass's work; null for a decoder alone
     * @param prefill   the prefill's work
     * @param step      the last decode step's work
     * @param uncounted op types without a FLOP rule (so the FLOPs are a floor)
     * @param note      what the count says about the weights: read at least once, or the count below them
     */
    record Counted(DecoderWork encode, DecoderWork prefill, DecoderWork step, List<String> uncounted, String note) {
    }

    /** The work at one prompt length and batch, or empty when no engine of the run profiles this decoder's ops. */
    static Optional<Counted> count(ModelSource source, SessionDefaults sessions, List<KvPair> pairs, int promptLength, int batch,
                                   int newTokens) {
        Optional<String> profiler = Engines.names().stream().filter(e -> Engines.capabilities(e).opProfile()
                && Engines.capabilities(e).whyNotGenerate(e, source) == null).findFirst();
        if (profiler.isEmpty() || newTokens < 2) {
            return Optional.empty();
        }
        Path traces = null;
        try {
            traces = Files.createTempDirectory("inferbench-decoder-profile");
            InferenceEngine engine = sessions.backend(profiler.get());
            List<Path> files;
            boolean encoder;
            try (DecoderSession decoder = engine.openProfiledDecoder(sessions.spec(source, "cpu"), pairs, traces)) {
                Generation.run(decoder, GenerationKind.prompt(sessions.seed(), promptLength, batch), batch, promptLength,
                        newTokens, NanoClock.SYSTEM);
                encoder = decoder.hasEncoder();
                files = new java.util.ArrayList<>(decoder.endProfiling());
            }
            WorkCount encode = encoder ? WorkCount.of(OpTrace.pass(engine.readProfile(files.get(0)), 0, files.remove(0))) : null;
            Path prefillFile = files.get(0);
            Path stepFile = files.get(files.size() - 1);
            int lastStep = files.size() == 1 ? newTokens - 1 : newTokens - 2;
            WorkCount prefill = WorkCount.of(OpTrace.pass(engine.readProfile(prefillFile), 0, prefillFile));
            WorkCount step = WorkCount.of(OpTrace.pass(engine.readProfile(stepFile), lastStep, stepFile));
            long weights = weightBytes(source instanceof ModelSource.BuiltinSeq2Seq
                    ? new ModelSource.OnnxFolder(io.inferbench.model.ExportFolder.read(sessions.spec(source, "cpu").modelFile())) : source);
            String note = weights <= 0 ? "the graph's weights are not counted apart (external data or none found)"
                    : step.bytes() >= weights
                    ? io.inferbench.Text.f("the step's bytes (%.2f MB) are at least the graph's weights but for its embedding tables (%.2f MB): every weight read",
                    step.bytes() / 1e6, weights / 1e6)
                    : io.inferbench.Text.f("the step's bytes (%.2f MB) are below the graph's weights but for its embedding tables (%.2f MB): the profile missed "
                    + "kernels, so the bytes are a floor", step.bytes() / 1e6, weights / 1e6);
            List<String> uncounted = Stream.concat(prefill.uncounted().stream(), step.uncounted().stream()).distinct().toList();
            return Optional.of(new Counted(encode == null ? null : new DecoderWork(encode.flops(), encode.bytes()),
                    new DecoderWork(prefill.flops(), prefill.bytes()), new DecoderWork(step.flops(), step.bytes()), uncounted, note));
        } catch (IOException e) {
            throw new BenchmarkException("Could not profile the decoder " + source.name() + ": " + e.getMessage(), e);
        } finally {
            delete(traces);
        }
    }

    /** The bytes of the initializers of the graph the steps run ({@link io.inferbench.model.OnnxWeights}). */
    static long weightBytes(ModelSource source) {
        Path graph = source instanceof ModelSource.OnnxFolder folder
                ? (folder.export().split() ? folder.export().withPast() : folder.export().decoder()) : source.file();
        return graph == null ? 0 : io.inferbench.model.OnnxWeights.initializerBytes(graph);
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary folder left behind is harmless
        }
    }
}
