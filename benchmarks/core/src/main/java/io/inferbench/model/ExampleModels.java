package io.inferbench.model;

import ai.onnx.proto.OnnxMl.TensorProto;
import io.inferbench.BenchmarkException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static io.inferbench.model.OnnxGraphBuilder.intAttribute;
import static io.inferbench.model.OnnxGraphBuilder.intsAttribute;

/**
 * Small models that are not BERT-style encoders, generated with seeded weights, for docs/models.md and its commands:
 * what a user brings, as files, with nothing downloaded.
 *
 * <ul>
 *   <li>{@value #IMAGE_CNN}: {@code pixel_values float [batch, 3, 64, 64]}, two 3x3 convolutions (16 and 32 channels)
 *       with ReLU, a 2x2 max pool, a global average pool and a linear head to 10 logits. No swept axis: it runs batch only.</li>
 *   <li>{@value #AUDIO_ENCODER}: {@code input_features float [batch, frames, 80]} and a second float input,
 *       {@code speaker float [batch, 16]}: two 256-wide projections per frame, the speaker's projection added to every
 *       frame, a mean over frames and a head to 10 logits. Sweep {@code frames} with {@code -Dbench.seqAxis=frames}.</li>
 *   <li>{@value #PIXEL_MODULE}: a TorchScript module, {@code forward(pixel_values, projection)}: each pixel's 3
 *       channels projected to 256 by the {@code projection} input ({@code [256, 3]}, no batch axis: a 1x1 convolution as a
 *       matrix product), ReLU and a mean over the image. A TorchScript archive declares no shapes:
 *       {@value #PIXEL_MODULE_SPEC} gives them. (A product rather than {@code conv2d}: a TorchScript runtime's CPU convolution can probe
 *       NNPACK and print a warning per call on CPUs it does not support.)</li>
 *   <li>{@value #USER_DECODER}: a decoder with a key/value cache whose names are not Hugging Face's ({@code k_cache_N}
 *       and {@code v_cache_N} in, {@code k_cache_N_next} and {@code v_cache_N_next} out): the built-in decoder's graph at
 *       vocab 1000, hidden 64, 2 layers. Generation refuses it until {@code -Dbench.kvPairs} pairs them.</li>
 *   <li>{@value #MERGED_FOLDER} and {@value #SPLIT_FOLDER}: the same decoder with Hugging Face's names, as optimum's
 *       export folders hold it ({@link OnnxDecoderExporter.Variant}), each with an {@code attention_mask} and a
 *       {@code config.json}: {@code decoder_model_merged.onnx} with its {@code use_cache_branch}, or the pair
 *       {@code decoder_model.onnx} (the prefill) and {@code decoder_with_past_model.onnx} (the steps).</li>
 *   <li>{@value #TEXT_SEQ2SEQ} and {@value #AUDIO_SEQ2SEQ}: an encoder-decoder as optimum's folders hold one
 *       ({@link OnnxSeq2SeqExporter}: {@code encoder_model.onnx}, {@code decoder_model.onnx},
 *       {@code decoder_with_past_model.onnx}, {@code config.json}), its encoder taking token ids and a mask as T5, BART
 *       and Marian do, or {@code input_features [batch, frames, 16]} as Whisper does; the user decoder's shape.</li>
 *   <li>{@value #WHISPER_SEQ2SEQ}: the audio one with its frames fixed at {@value #WHISPER_FRAMES}, as Whisper's own
 *       export fixes them (3000): an encoder with no axis for the sweep's lengths, whose generation runs batch only.</li>
 *   <li>{@value #PIXELS}: 32 rows of seeded pixels {@code [3, 64, 64]}, as real data would be, and
 *       {@value #IMAGE_CNN_SPEC}, a spec that feeds them to the CNN.</li>
 * </ul>
 */
public final class ExampleModels {
    public static final String IMAGE_CNN = "image-cnn.onnx";
    public static final String IMAGE_CNN_SPEC = "image-cnn-inputs.json";
    public static final String PIXELS = "pixels.npy";
    public static final String AUDIO_ENCODER = "audio-encoder.onnx";
    public static final String PIXEL_MODULE = "pixel-module.pt";
    public static final String PIXEL_MODULE_SPEC = "pixel-module-inputs.json";
    public static final String USER_DECODER = "user-decoder.onnx";
    public static final String MERGED_FOLDER = "optimum-merged";
    public static final String SPLIT_FOLDER = "optimum-split";
    public static final String TEXT_SEQ2SEQ = "seq2seq-text";
    public static final String AUDIO_SEQ2SEQ = "seq2seq-audio";
    public static final String WHISPER_SEQ2SEQ = "seq2seq-whisper";
    /** The frames {@value #WHISPER_SEQ2SEQ}'s encoder takes, fixed in its graph. */
    public static final int WHISPER_FRAMES = 40;
    /** The audio encoder-decoder's features per frame. */
    public static final int AUDIO_FEATURES = 16;
    /** The token the encoder-decoders' decoder starts from ({@code decoder_start_token_id}). */
    public static final int DECODER_START_TOKEN_ID = 0;
    /** The end-of-sequence id the folders' {@code config.json} names. */
    public static final int EOS_TOKEN_ID = 2;
    /** The user decoder's shape: small, so that its generation runs in seconds. */
    public static final DecoderConfig USER_DECODER_CONFIG = new DecoderConfig(1000, 64, 2, 4, 256, 512);
    static final int PIXEL_ROWS = 32;

    private ExampleModels() {
    }

    /** Writes every example into {@code dir} (created if missing); returns the files written. */
    public static List<Path> write(Path dir, long seed) {
        try {
            Files.createDirectories(dir);
            write(dir.resolve(IMAGE_CNN), out -> imageCnn(seed).writeTo(out));
            write(dir.resolve(AUDIO_ENCODER), out -> audioEncoder(seed).writeTo(out));
            write(dir.resolve(PIXELS), out -> out.write(npyFloats(seed, PIXEL_ROWS, 3, 64, 64)));
            write(dir.resolve(IMAGE_CNN_SPEC), out -> out.write(("{\"inputs\": [\n  {\"name\": \"pixel_values\", "
                    + "\"type\": \"float32\", \"shape\": [\"batch\", 3, 64, 64], \"values\": {\"npy\": \"" + PIXELS
                    + "\"}}\n]}\n").getBytes(StandardCharsets.UTF_8)));
            write(dir.resolve(PIXEL_MODULE), out -> out.write(pixelModule()));
            write(dir.resolve(USER_DECODER), out -> OnnxDecoderExporter.export(DecoderWeights.generate(USER_DECODER_CONFIG, seed),
                    "example user decoder: its cache named k_cache_N/v_cache_N in, k_cache_N_next/v_cache_N_next out, "
                            + "and no attention mask", DecoderNames.renamed(), OnnxDecoderExporter.Variant.UNMASKED).writeTo(out));
            writeFolders(dir, seed);
            writeSeq2Seq(dir, seed);
            write(dir.resolve(PIXEL_MODULE_SPEC), out -> out.write(("{\"inputs\": [\n  {\"name\": \"pixel_values\", "
                    + "\"type\": \"float32\", \"shape\": [\"batch\", 3, 64, 64], \"values\": \"normal\"},\n"
                    + "  {\"name\": \"projection\", \"type\": \"float32\", \"shape\": [256, 3], \"values\": {\"range\": "
                    + "[-0.5, 0.5]}}\n]}\n").getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new BenchmarkException("Could not write the example models into " + dir + ": " + e.getMessage()
                    + ". Give a writable folder with -Dout", e);
        }
        return List.of(dir.resolve(IMAGE_CNN), dir.resolve(IMAGE_CNN_SPEC), dir.resolve(PIXELS), dir.resolve(AUDIO_ENCODER),
                dir.resolve(PIXEL_MODULE), dir.resolve(PIXEL_MODULE_SPEC), dir.resolve(USER_DECODER), dir.resolve(MERGED_FOLDER),
                dir.resolve(SPLIT_FOLDER), dir.resolve(TEXT_SEQ2SEQ), dir.resolve(AUDIO_SEQ2SEQ), dir.resolve(WHISPER_SEQ2SEQ));
    }

    /** The two encoder-decoder folders, split as optimum exports them. */
    private static void writeSeq2Seq(Path dir, long seed) throws IOException {
        writeSeq2Seq(Files.createDirectories(dir.resolve(TEXT_SEQ2SEQ)), USER_DECODER_CONFIG, OnnxSeq2SeqExporter.Input.TEXT, seed);
        writeSeq2Seq(Files.createDirectories(dir.resolve(AUDIO_SEQ2SEQ)), USER_DECODER_CONFIG, OnnxSeq2SeqExporter.Input.AUDIO,
                seed);
        writeSeq2Seq(Files.createDirectories(dir.resolve(WHISPER_SEQ2SEQ)), USER_DECODER_CONFIG, OnnxSeq2SeqExporter.Input.AUDIO,
                WHISPER_FRAMES, seed);
    }

    /** An encoder-decoder of shape {@code c} into {@code folder}, as optimum's split export holds one. */
    static void writeSeq2Seq(Path folder, DecoderConfig c, OnnxSeq2SeqExporter.Input input, long seed) throws IOException {
        writeSeq2Seq(folder, c, input, null, seed);
    }

    /** As above, an audio encoder's frames fixed at {@code fixedFrames} (null: a dynamic axis). */
    static void writeSeq2Seq(Path folder, DecoderConfig c, OnnxSeq2SeqExporter.Input input, Integer fixedFrames, long seed)
            throws IOException {
        Seq2SeqWeights weights = Seq2SeqWeights.generate(c, AUDIO_FEATURES, seed);
        String kind = input == OnnxSeq2SeqExporter.Input.TEXT ? "text" : "audio";
        write(folder.resolve(ExportFolder.ENCODER), out -> OnnxSeq2SeqExporter.encoder(weights, input, fixedFrames,
                "inferbench " + kind + " encoder-decoder's encoder, seed " + seed).writeTo(out));
        write(folder.resolve(ExportFolder.DECODER), out -> OnnxSeq2SeqExporter.decoder(weights, input, false,
                "inferbench " + kind + " encoder-decoder's first decoder pass, seed " + seed).writeTo(out));
        write(folder.resolve(ExportFolder.WITH_PAST), out -> OnnxSeq2SeqExporter.decoder(weights, input, true,
                "inferbench " + kind + " encoder-decoder's decoder with past, seed " + seed).writeTo(out));
        write(folder.resolve(ExportFolder.CONFIG), out -> out.write(seq2seqConfig(c, input).getBytes(StandardCharsets.UTF_8)));
    }

    /** A T5 or Whisper {@code config.json} for {@code c}, with the keys each family uses. */
    public static String seq2seqConfig(DecoderConfig c, OnnxSeq2SeqExporter.Input input) {
        return input == OnnxSeq2SeqExporter.Input.TEXT
                ? "{\n  \"model_type\": \"t5\",\n  \"vocab_size\": " + c.vocabSize() + ",\n  \"d_model\": " + c.hidden()
                + ",\n  \"num_layers\": " + c.layers() + ",\n  \"num_decoder_layers\": " + c.layers() + ",\n  \"num_heads\": "
                + c.heads() + ",\n  \"d_ff\": " + c.ffnHidden() + ",\n  \"n_positions\": " + c.maxPositions()
                + ",\n  \"decoder_start_token_id\": " + DECODER_START_TOKEN_ID + ",\n  \"eos_token_id\": 1\n}\n"
                : "{\n  \"model_type\": \"whisper\",\n  \"vocab_size\": " + c.vocabSize() + ",\n  \"d_model\": " + c.hidden()
                + ",\n  \"encoder_layers\": " + c.layers() + ",\n  \"decoder_layers\": " + c.layers()
                + ",\n  \"decoder_attention_heads\": " + c.heads() + ",\n  \"num_mel_bins\": " + AUDIO_FEATURES
                + ",\n  \"max_target_positions\": " + c.maxPositions() + ",\n  \"decoder_start_token_id\": "
                + DECODER_START_TOKEN_ID + ",\n  \"eos_token_id\": " + EOS_TOKEN_ID + "\n}\n";
    }

    /** The two export folders: a merged decoder, and a split pair, each with its {@code config.json}. */
    private static void writeFolders(Path dir, long seed) throws IOException {
        DecoderWeights weights = DecoderWeights.generate(USER_DECODER_CONFIG, seed);
        Path merged = Files.createDirectories(dir.resolve(MERGED_FOLDER));
        write(merged.resolve(ExportFolder.MERGED), out -> OnnxDecoderExporter.export(weights, "example optimum-style merged "
                + "decoder, seed " + seed, DecoderNames.HUGGING_FACE, OnnxDecoderExporter.Variant.MERGED).writeTo(out));
        write(merged.resolve(ExportFolder.CONFIG), out -> out.write(config(USER_DECODER_CONFIG).getBytes(StandardCharsets.UTF_8)));
        Path split = Files.createDirectories(dir.resolve(SPLIT_FOLDER));
        write(split.resolve(ExportFolder.DECODER), out -> OnnxDecoderExporter.export(weights, "example optimum-style decoder "
                + "(prefill), seed " + seed, DecoderNames.HUGGING_FACE, OnnxDecoderExporter.Variant.PREFILL).writeTo(out));
        write(split.resolve(ExportFolder.WITH_PAST), out -> OnnxDecoderExporter.export(weights, "example optimum-style "
                + "decoder with past, seed " + seed, DecoderNames.HUGGING_FACE, OnnxDecoderExporter.Variant.WITH_PAST).writeTo(out));
        write(split.resolve(ExportFolder.CONFIG), out -> out.write(config(USER_DECODER_CONFIG).getBytes(StandardCharsets.UTF_8)));
    }

    /** A GPT-2 {@code config.json} for {@code c}, as transformers writes one (the keys the harness reads, and a few more). */
    public static String config(DecoderConfig c) {
        return "{\n  \"model_type\": \"gpt2\",\n  \"architectures\": [\"GPT2LMHeadModel\"],\n  \"vocab_size\": " + c.vocabSize()
                + ",\n  \"n_embd\": " + c.hidden() + ",\n  \"n_layer\": " + c.layers() + ",\n  \"n_head\": " + c.heads()
                + ",\n  \"n_inner\": " + c.ffnHidden() + ",\n  \"n_positions\": " + c.maxPositions()
                + ",\n  \"bos_token_id\": " + EOS_TOKEN_ID + ",\n  \"eos_token_id\": " + EOS_TOKEN_ID + "\n}\n";
    }

    private interface Writer {
        void to(OutputStream out) throws IOException;
    }

    private static void write(Path file, Writer writer) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            writer.to(out);
        }
    }

    /** The CNN: Conv 3->16, ReLU, MaxPool 2x2, Conv 16->32, ReLU, GlobalAveragePool, Flatten, Gemm 32->10. */
    static ai.onnx.proto.OnnxMl.ModelProto imageCnn(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        OnnxGraphBuilder g = new OnnxGraphBuilder("image_cnn");
        g.input("pixel_values", TensorProto.DataType.FLOAT, "batch", 3, 64, 64);
        String w1 = g.floatInitializer("conv1.weight", weights(random, 16 * 3 * 9, 3 * 9), 16, 3, 3, 3);
        String b1 = g.floatInitializer("conv1.bias", new float[16], 16);
        String x = g.node("Relu", g.node("Conv", new String[] {"pixel_values", w1, b1}, intsAttribute("kernel_shape", 3, 3),
                intsAttribute("pads", 1, 1, 1, 1)));
        x = g.node("MaxPool", new String[] {x}, intsAttribute("kernel_shape", 2, 2), intsAttribute("strides", 2, 2));
        String w2 = g.floatInitializer("conv2.weight", weights(random, 32 * 16 * 9, 16 * 9), 32, 16, 3, 3);
        String b2 = g.floatInitializer("conv2.bias", new float[32], 32);
        x = g.node("Relu", g.node("Conv", new String[] {x, w2, b2}, intsAttribute("kernel_shape", 3, 3),
                intsAttribute("pads", 1, 1, 1, 1)));
        x = g.node("Flatten", new String[] {g.node("GlobalAveragePool", x)}, intAttribute("axis", 1));
        String wo = g.floatInitializer("head.weight", weights(random, 32 * 10, 32), 32, 10);
        String bo = g.floatInitializer("head.bias", new float[10], 10);
        g.nodeWithOutput("Gemm", new String[] {x, wo, bo}, "logits");
        g.output("logits", TensorProto.DataType.FLOAT, "batch", 10);
        return g.build("example", "inferbench example image CNN, seed " + seed);
    }

    /** The audio-like encoder: per-frame projections, a speaker input added to every frame, a mean over frames. */
    static ai.onnx.proto.OnnxMl.ModelProto audioEncoder(long seed) {
        SplittableRandom random = new SplittableRandom(seed + 1);
        OnnxGraphBuilder g = new OnnxGraphBuilder("audio_encoder");
        g.input("input_features", TensorProto.DataType.FLOAT, "batch", "frames", 80);
        g.input("speaker", TensorProto.DataType.FLOAT, "batch", 16);
        String w1 = g.floatInitializer("proj1.weight", weights(random, 80 * 256, 80), 80, 256);
        String b1 = g.floatInitializer("proj1.bias", new float[256], 256);
        String h = g.node("Relu", g.node("Add", g.node("MatMul", "input_features", w1), b1));
        String w2 = g.floatInitializer("proj2.weight", weights(random, 256 * 256, 256), 256, 256);
        h = g.node("MatMul", h, w2);
        String ws = g.floatInitializer("speaker.weight", weights(random, 16 * 256, 16), 16, 256);
        String s = g.node("Unsqueeze", g.node("MatMul", "speaker", ws), g.int64Initializer("frame_axis", 1));
        h = g.node("Relu", g.node("Add", h, s));
        String pooled = g.node("ReduceMean", new String[] {h}, intsAttribute("axes", 1), intAttribute("keepdims", 0));
        String wo = g.floatInitializer("head.weight", weights(random, 256 * 10, 256), 256, 10);
        String bo = g.floatInitializer("head.bias", new float[10], 10);
        g.nodeWithOutput("Gemm", new String[] {pooled, wo, bo}, "logits");
        g.output("logits", TensorProto.DataType.FLOAT, "batch", 10);
        return g.build("example", "inferbench example audio encoder, seed " + seed);
    }

    private static float[] weights(SplittableRandom random, int count, int fanIn) {
        float[] w = new float[count];
        double scale = 1 / Math.sqrt(fanIn);
        for (int i = 0; i < count; i++) {
            w[i] = (float) (random.nextGaussian() * scale);
        }
        return w;
    }

    /** A float32 {@code .npy} file (format 1.0, C order) of seeded normal values. */
    static byte[] npyFloats(long seed, int... shape) {
        StringBuilder dims = new StringBuilder();
        long count = 1;
        for (int d : shape) {
            dims.append(d).append(", ");
            count *= d;
        }
        String header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims.toString().trim() + "), }";
        int total = 10 + header.length() + 1;
        String padded = header + " ".repeat((64 - total % 64) % 64) + "\n";
        ByteBuffer out = ByteBuffer.allocate(10 + padded.length() + (int) count * 4).order(ByteOrder.LITTLE_ENDIAN);
        out.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short) padded.length());
        out.put(padded.getBytes(StandardCharsets.ISO_8859_1));
        SplittableRandom random = new SplittableRandom(seed + 2);
        for (long i = 0; i < count; i++) {
            out.putFloat((float) random.nextGaussian());
        }
        return out.array();
    }

    /**
     * A TorchScript archive as {@code torch.jit.save} writes one for a module without parameters: {@code data.pkl} (the
     * module object: its class and its {@code training} and {@code _is_full_backward_hook} attributes, pickle
     * protocol 2), the class's TorchScript source in {@code code/__torch__.py}, an empty {@code constants.pkl} and
     * {@code version} 3. Entries are stored, not deflated, as TorchScript's own writer stores its records.
     */
    static byte[] pixelModule() throws IOException {
        String name = "pixel_module";
        String className = "PixelModule";
        ByteArrayOutputStream pickle = new ByteArrayOutputStream();
        pickle.write(new byte[] {(byte) 0x80, 2, 'c'});
        pickle.write(("__torch__\n" + className + "\n").getBytes(StandardCharsets.US_ASCII));
        pickle.write(new byte[] {'q', 0, ')', (byte) 0x81, '}', '('});
        binUnicode(pickle, "training");
        pickle.write(new byte[] {'q', 1, (byte) 0x89});
        binUnicode(pickle, "_is_full_backward_hook");
        pickle.write(new byte[] {'q', 2, 'N', 'u', 'b', 'q', 3, '.'});
        String code = String.join("\n",
                "class " + className + "(Module):",
                "  __parameters__ = []",
                "  __buffers__ = []",
                "  training : bool",
                "  _is_full_backward_hook : Optional[bool]",
                "  def forward(self: __torch__." + className + ",",
                "    pixel_values: Tensor,",
                "    projection: Tensor) -> Tensor:",
                "    x = torch.flatten(pixel_values, 2)",
                "    h = torch.relu(torch.matmul(projection, x))",
                "    return torch.mean(h, [2])",
                "");
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        try (ZipOutputStream out = new ZipOutputStream(zip)) {
            stored(out, name + "/data.pkl", pickle.toByteArray());
            stored(out, name + "/code/__torch__.py", code.getBytes(StandardCharsets.UTF_8));
            stored(out, name + "/constants.pkl", new byte[] {(byte) 0x80, 2, ')', '.'});
            stored(out, name + "/version", "3\n".getBytes(StandardCharsets.US_ASCII));
        }
        return zip.toByteArray();
    }

    private static void binUnicode(ByteArrayOutputStream pickle, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        pickle.write('X');
        pickle.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(bytes.length).array());
        pickle.writeBytes(bytes);
    }

    private static void stored(ZipOutputStream out, String entryName, byte[] bytes) throws IOException {
        ZipEntry entry = new ZipEntry(entryName);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(bytes.length);
        entry.setCompressedSize(bytes.length);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        entry.setCrc(crc.getValue());
        entry.setTime(315532800000L);
        out.putNextEntry(entry);
        out.write(bytes);
        out.closeEntry();
    }

}
