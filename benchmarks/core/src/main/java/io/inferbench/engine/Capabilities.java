package io.inferbench.engine;

import io.inferbench.model.ModelFormat;
import io.inferbench.model.ModelSource;

import java.util.List;
import java.util.Set;

/**
 * What an engine can do, declared by the engine itself ({@link EngineProvider#capabilities}) and read by everything that
 * plans a run: which models it loads, which of those it can generate with, which devices it runs on, and whether it can
 * calibrate the machine's roofs or profile a pass op by op. Nothing outside an engine's own package keys a rule on its
 * name; it asks these.
 *
 * @param formats        the models it opens for a forward pass ({@link InferenceEngine#open})
 * @param decoderFormats the models it opens for generation ({@link InferenceEngine#openDecoder}); empty when it cannot
 * @param devices        where its sessions run
 * @param calibration    it measures its peaks ({@link InferenceEngine#calibrate})
 * @param opProfile      it profiles a pass op by op and reads its profile ({@link InferenceEngine#profilePass},
 *                       {@link InferenceEngine#readProfile})
 * @param cacheHandOff   how a decoder's key/value cache goes from one step's outputs to the next step's inputs, in words,
 *                       for the generation section; null when it cannot generate
 * @param decoderRows    its decoders serve generation under load, row by row ({@link DecoderSession#rows})
 */
public record Capabilities(Set<ModelFormat> formats, Set<ModelFormat> decoderFormats, Set<Device.Kind> devices,
                           boolean calibration, boolean opProfile, String cacheHandOff, boolean decoderRows) {
    public Capabilities {
        formats = Set.copyOf(formats);
        decoderFormats = Set.copyOf(decoderFormats);
        devices = Set.copyOf(devices);
    }

    /** Whether {@code engine}'s decoders serve {@code source} under load: it generates with it, row by row. */
    public boolean servesUnderLoad(String engine, ModelSource source) {
        return decoderRows && whyNotGenerate(engine, source) == null;
    }

    /** Why {@code engine} does not open {@code source} for a forward pass, naming what it does open; null when it does. */
    public String whyNot(String engine, ModelSource source) {
        return refusal(engine, "load", formats, source);
    }

    /** Why {@code engine} cannot generate with {@code source}, naming what it can; null when it can. */
    public String whyNotGenerate(String engine, ModelSource source) {
        return refusal(engine, "generate with", decoderFormats, source);
    }

    /** What it opens for a forward pass, in words, for a refusal that lists the choices: {@code "ONNX files, ..."}. */
    public String loads() {
        return String.join(", ", List.of(ModelFormat.values()).stream().filter(formats::contains).map(ModelFormat::label).toList());
    }

    private static String refusal(String engine, String verb, Set<ModelFormat> accepted, ModelSource source) {
        return accepted.contains(source.format()) ? null : engine + " does not " + verb + " " + source.format().label();
    }
}
