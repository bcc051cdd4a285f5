package io.inferbench.model;

import java.util.SplittableRandom;

/**
 * Seeded weights of the example encoder-decoder ({@link OnnxSeq2SeqExporter}), every part drawn as the built-in
 * decoder's are ({@link DecoderWeights}), each from its own seed so that a part does not shift another:
 *
 * @param encoder  the encoder: its embeddings (text) and layers, and its final LayerNorm; its head is not used
 * @param decoder  the decoder: its embeddings, self-attention and feed-forward layers, final LayerNorm and head
 * @param cross    the decoder's cross-attention, one per layer: each layer's {@code ln1} (the LayerNorm before it) and
 *                 {@code wq}, {@code wk}, {@code wv}, {@code wo} with their biases; the rest is not used
 * @param features the projection of an audio encoder's input features, {@code [featureSize, hidden]}
 */
public record Seq2SeqWeights(DecoderWeights encoder, DecoderWeights decoder, DecoderWeights cross, float[] features,
                             int featureSize) {

    public static Seq2SeqWeights generate(DecoderConfig config, int featureSize, long seed) {
        return new Seq2SeqWeights(DecoderWeights.generate(config, seed), DecoderWeights.generate(config, seed + 1),
                DecoderWeights.generate(config, seed + 2), EncoderWeights.gaussian(new SplittableRandom(seed + 3),
                featureSize * config.hidden()), featureSize);
    }

    public DecoderConfig config() {
        return decoder.config();
    }
}
