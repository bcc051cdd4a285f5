package io.inferbench.model;

import io.inferbench.BenchmarkException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A decoder as an optimum-style export folder holds it, its files found by optimum's names. Of the decoders a folder may
 * hold, the one used is, in order: {@value #MERGED} (one graph for both phases, its branch chosen by
 * {@code use_cache_branch}), {@value #SINGLE} (one graph, its cache in and out), or the pair {@value #DECODER} (the
 * prefill, no cache in) and {@value #WITH_PAST} (the steps); {@link #describe()} names the files it left unused.
 *
 * <p><b>Encoder-decoders.</b> A folder with {@value #ENCODER} is an encoder-decoder (Whisper, T5, BART, Marian): the
 * encoder runs once per generation, then the split pair ({@value #DECODER} for the first decoder pass, which computes the
 * cross-attention caches, {@value #WITH_PAST} for the steps), or its {@value #MERGED} (the same with
 * {@code use_cache_branch}), the merged one first.
 *
 * @param dir      the folder
 * @param decoder  the graph of the prefill (and of the steps, unless {@code withPast} is given)
 * @param withPast the graph of the steps of a split pair; null otherwise
 * @param config   {@value #CONFIG}, read; null when the folder has none
 * @param unused   the decoders the folder holds beside the ones used
 * @param encoder  {@value #ENCODER} of an encoder-decoder; null for a decoder alone
 */
public record ExportFolder(Path dir, Path decoder, Path withPast, ExportConfig config, List<String> unused, Path encoder) {
    public static final String MERGED = "decoder_model_merged.onnx";
    public static final String SINGLE = "model.onnx";
    public static final String DECODER = "decoder_model.onnx";
    public static final String WITH_PAST = "decoder_with_past_model.onnx";
    public static final String ENCODER = "encoder_model.onnx";
    public static final String CONFIG = "config.json";
    private static final List<String> DECODERS = List.of(MERGED, SINGLE, DECODER, WITH_PAST);

    public ExportFolder {
        unused = List.copyOf(unused);
    }

    public ExportFolder(Path dir, Path decoder, Path withPast, ExportConfig config, List<String> unused) {
        this(dir, decoder, withPast, config, unused, null);
    }

    /** Finds the decoder in {@code dir}, refusing a folder with none, half a pair, or an encoder-decoder export. */
    public static ExportFolder read(Path dir) {
        List<String> present = DECODERS.stream().filter(name -> Files.isRegularFile(dir.resolve(name))).toList();
        if (Files.isRegularFile(dir.resolve(ENCODER))) {
            boolean pair = present.contains(DECODER) && present.contains(WITH_PAST);
            if (!present.contains(MERGED) && !pair) {
                throw new BenchmarkException(dir + " holds " + ENCODER + ", an encoder-decoder export (Whisper, T5, BART, "
                        + "Marian), with " + (present.isEmpty() ? "no decoder" : String.join(", ", present)) + ". Generation "
                        + "drives an encoder-decoder's " + MERGED + ", or its split pair " + DECODER + " (the first decoder "
                        + "pass, which computes the cross-attention caches) and " + WITH_PAST + ". Export the folder again with "
                        + "optimum, or measure the encoder's forward pass alone with -Dbench.model=" + dir.resolve(ENCODER));
            }
            ExportConfig config = Files.isRegularFile(dir.resolve(CONFIG)) ? ExportConfig.read(dir.resolve(CONFIG)) : null;
            if (present.contains(MERGED)) {
                return new ExportFolder(dir, dir.resolve(MERGED), null, config,
                        present.stream().filter(n -> !n.equals(MERGED)).toList(), dir.resolve(ENCODER));
            }
            return new ExportFolder(dir, dir.resolve(DECODER), dir.resolve(WITH_PAST), config,
                    present.stream().filter(n -> !n.equals(DECODER) && !n.equals(WITH_PAST)).toList(), dir.resolve(ENCODER));
        }
        if (present.isEmpty()) {
            throw new BenchmarkException(dir + " holds none of the decoders of an export folder (" + String.join(", ", DECODERS)
                    + "); it holds: " + listing(dir) + ". Give the folder optimum exported (optimum-cli export onnx --task "
                    + "text-generation-with-past), or the path of one .onnx file");
        }
        ExportConfig config = Files.isRegularFile(dir.resolve(CONFIG)) ? ExportConfig.read(dir.resolve(CONFIG)) : null;
        String chosen = present.contains(MERGED) ? MERGED : present.contains(SINGLE) ? SINGLE : null;
        if (chosen != null) {
            return new ExportFolder(dir, dir.resolve(chosen), null, config, present.stream().filter(n -> !n.equals(chosen)).toList());
        }
        if (!present.contains(DECODER) || !present.contains(WITH_PAST)) {
            String has = present.get(0);
            String lacks = has.equals(DECODER) ? WITH_PAST : DECODER;
            throw new BenchmarkException(dir + " holds " + has + " without " + lacks + ": a split export needs both, "
                    + DECODER + " for the prefill and " + WITH_PAST + " for the decode steps. Export the folder again with its "
                    + "cache (--task text-generation-with-past), or give a merged " + MERGED);
        }
        return new ExportFolder(dir, dir.resolve(DECODER), dir.resolve(WITH_PAST), config, List.of());
    }

    /** Whether the prefill and the steps are two graphs. */
    public boolean split() {
        return withPast != null;
    }

    /**
     * The files whose bytes are the model: the decoders used and their external data (a file named after one, such as
     * {@code model.onnx_data}), each once, in a fixed order.
     */
    public List<Path> files() {
        List<Path> files = new ArrayList<>();
        List<Path> graphs = new ArrayList<>();
        if (encoder != null) {
            graphs.add(encoder);
        }
        graphs.add(decoder);
        if (split()) {
            graphs.add(withPast);
        }
        for (Path graph : graphs) {
            files.add(graph);
            String name = graph.getFileName().toString();
            try (Stream<Path> siblings = Files.list(dir)) {
                siblings.filter(p -> {
                    String other = p.getFileName().toString();
                    return !other.equals(name) && other.startsWith(name) && Files.isRegularFile(p);
                }).sorted().filter(p -> !files.contains(p)).forEach(files::add);
            } catch (IOException e) {
                throw new BenchmarkException("Could not list the export folder " + dir + ": " + e.getMessage(), e);
            }
        }
        return files;
    }

    /** In words, for the record: which files run which phase, and what else the folder holds. */
    public String describe() {
        String used = encoder != null && split() ? ENCODER + " runs the encoder, " + DECODER + " the first decoder pass (its "
                + "cross-attention caches kept for every step) and " + WITH_PAST + " the decode steps (three sessions)"
                : encoder != null ? ENCODER + " runs the encoder and " + MERGED + " the first decoder pass (its cross-attention "
                + "caches computed) and the decode steps (the caches passed through; two sessions)"
                : split() ? DECODER + " runs the prefill and " + WITH_PAST + " the decode steps (two sessions)"
                : decoder.getFileName() + " runs the prefill and the decode steps";
        return "export folder " + dir.getFileName() + ": " + used
                + (unused.isEmpty() ? "" : "; also there, not used: " + String.join(", ", unused))
                + (config == null ? "; no " + CONFIG : "; " + CONFIG + ": " + config.describe());
    }

    private static String listing(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(p -> p.getFileName().toString()).sorted().limit(12).toList();
            return names.isEmpty() ? "nothing" : String.join(", ", names);
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
