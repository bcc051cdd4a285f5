package io.inferbench.model;

import io.inferbench.BenchmarkException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Turns a {@link ModelSource} into a file on disk. Built-in presets are generated once into
 * {@code cacheDir}, keyed by preset, seed and generator version, and written atomically (temp file, then
 * move) so a crash never leaves a half-written model that a later run would trust.
 */
public final class ModelResolver {
    private final Path cacheDir;
    private final long seed;

    public ModelResolver(Path cacheDir, long seed) {
        this.cacheDir = cacheDir;
        this.seed = seed;
    }

    public ResolvedModel resolve(ModelSource source) {
        if (source instanceof ModelSource.Builtin builtin) {
            return resolveBuiltin(builtin);
        }
        if (source instanceof ModelSource.BuiltinDecoder decoder) {
            return resolveDecoder(decoder);
        }
        if (source instanceof ModelSource.None) {
            return new ResolvedModel(source.name(), null, ModelSource.None.NAME, 0, "no model: the target loads what it needs "
                    + "itself");
        }
        if (source instanceof ModelSource.OnnxFolder folder) {
            return describeFolder(source.name(), folder.export(), "user ");
        }
        if (source instanceof ModelSource.BuiltinSeq2Seq seq2seq) {
            return describeFolder(source.name(), ExportFolder.read(seq2seqFolder()), "built-in encoder-decoder " + seq2seq.name() + " (vocab "
                    + ModelSource.BuiltinSeq2Seq.CONFIG.vocabSize() + ", hidden 64, 2 + 2 layers, 4 heads), seed " + seed
                    + ", generator v" + OnnxSeq2SeqExporter.GENERATOR_VERSION + ", as an ");
        }
        String kind = source instanceof ModelSource.TorchScriptFile ? "TorchScript" : "ONNX";
        return describe(source.name(), source.file(), "user " + kind + " model " + source.file().getFileName());
    }

    /**
     * The model's file, generating a built-in one if the cache lacks it, without hashing it: for forked JVMs,
     * which only need to load it.
     */
    public Path locate(ModelSource source) {
        if (source instanceof ModelSource.Builtin builtin) {
            Path target = cachedFile(builtin);
            return Files.isRegularFile(target) ? target : resolveBuiltin(builtin).path();
        }
        if (source instanceof ModelSource.BuiltinDecoder decoder) {
            Path target = cachedFile(decoder);
            return Files.isRegularFile(target) ? target : resolveDecoder(decoder).path();
        }
        if (source instanceof ModelSource.BuiltinSeq2Seq) {
            return seq2seqFolder();
        }
        return source.file();
    }

    /** The cache file of a built-in: {@code encoder-<preset>[-<precision>]-seed<seed>-g<generator>.onnx}. */
    public Path cachedFile(ModelSource.Builtin builtin) {
        return cacheDir.resolve("encoder-" + builtin.name() + "-seed" + seed + "-g" + OnnxEncoderExporter.GENERATOR_VERSION + ".onnx");
    }

    /** The cache file of a built-in decoder: {@code decoder-<preset>-seed<seed>-g<generator>.onnx}. */
    public Path cachedFile(ModelSource.BuiltinDecoder decoder) {
        return cacheDir.resolve("decoder-" + decoder.name() + "-seed" + seed + "-g" + OnnxDecoderExporter.GENERATOR_VERSION + ".onnx");
    }

    /**
     * The built-in encoder-decoder's folder in the cache ({@code seq2seq-tiny-seq2seq-seed<seed>-g<generator>}), written
     * if missing: into a temporary folder, then moved into place, so a crash never leaves half a folder.
     */
    public Path seq2seqFolder() {
        Path target = cacheDir.resolve("seq2seq-" + ModelSource.BuiltinSeq2Seq.NAME + "-seed" + seed + "-g"
                + OnnxSeq2SeqExporter.GENERATOR_VERSION);
        if (Files.isDirectory(target)) {
            return target;
        }
        try {
            Files.createDirectories(cacheDir);
            Path temp = Files.createTempDirectory(cacheDir, target.getFileName() + ".tmp");
            ExampleModels.writeSeq2Seq(temp, ModelSource.BuiltinSeq2Seq.CONFIG, OnnxSeq2SeqExporter.Input.TEXT, seed);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                if (!Files.isDirectory(target)) {
                    throw e;
                }
                // another JVM wrote it first: the same bytes from the same seed
            }
            return target;
        } catch (IOException e) {
            throw new BenchmarkException("Could not write the built-in encoder-decoder to the cache folder " + cacheDir
                    + ": make it writable, or point -Dbench.cache at a writable folder", e);
        }
    }

    private ResolvedModel resolveDecoder(ModelSource.BuiltinDecoder decoder) {
        DecoderConfig c = decoder.preset().config();
        String description = "built-in decoder " + decoder.name() + " (vocab " + c.vocabSize() + ", hidden " + c.hidden()
                + ", layers " + c.layers() + ", heads " + c.heads() + ", ffn " + c.ffnHidden() + ", positions "
                + c.maxPositions() + "), seed " + seed + ", generator v" + OnnxDecoderExporter.GENERATOR_VERSION;
        Path target = cachedFile(decoder);
        if (!Files.isRegularFile(target)) {
            writeAtomically(target, out -> OnnxDecoderExporter.export(DecoderWeights.generate(c, seed), description,
                    DecoderNames.HUGGING_FACE).writeTo(out));
        }
        return describe(decoder.name(), target, description);
    }

    private ResolvedModel resolveBuiltin(ModelSource.Builtin builtin) {
        EncoderConfig c = builtin.preset().config();
        String description = "built-in encoder " + builtin.preset().id() + " (vocab " + c.vocabSize() + ", hidden " + c.hidden()
                + ", layers " + c.layers() + ", heads " + c.heads() + ", ffn " + c.ffnHidden() + ", labels " + c.numLabels()
                + "), seed " + seed + ", generator v" + OnnxEncoderExporter.GENERATOR_VERSION
                + (builtin.precision() == Precision.FP32 ? "" : ", " + builtin.precision().description());
        Path target = cachedFile(builtin);
        if (!Files.isRegularFile(target)) {
            generate(builtin, description, target);
        }
        return describe(builtin.name(), target, description);
    }

    private void generate(ModelSource.Builtin builtin, String description, Path target) {
        writeAtomically(target, out -> OnnxEncoderExporter.export(EncoderWeights.generate(builtin.preset().config(), seed),
                description, builtin.precision()).writeTo(out));
    }

    /** Writes what {@code writer} writes into {@code target}, through a temporary file, so a crash leaves no half model. */
    private void writeAtomically(Path target, ModelWriter writer) {
        try {
            Files.createDirectories(cacheDir);
            Path temp = Files.createTempFile(cacheDir, target.getFileName().toString(), ".tmp");
            try {
                try (OutputStream out = Files.newOutputStream(temp)) {
                    writer.write(out);
                }
                moveAtomically(temp, target);
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new BenchmarkException("Could not write the generated model to the cache folder " + cacheDir
                    + ": make it writable, or point -Dbench.cache at a writable folder", e);
        }
    }

    private interface ModelWriter {
        void write(OutputStream out) throws IOException;
    }

    static void moveAtomically(Path source, Path target) throws IOException {
        try {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Refuses an empty model file before any engine opens it: an engine would say only "ModelProto does not have a
     * graph", and an empty file is an export or a copy that did not finish.
     */
    public static void requireNotEmpty(Path file) {
        try {
            if (file != null && Files.isRegularFile(file) && Files.size(file) == 0) {
                throw new BenchmarkException("Model file " + file + " is empty (0 bytes): an export or a copy that did not "
                        + "finish. Export the model again, or give another file with -Dbench.model");
            }
        } catch (IOException e) {
            throw new BenchmarkException("Could not read model file " + file + ": check that it exists and is readable", e);
        }
    }

    private static ResolvedModel describe(String name, Path path, String description) {
        try {
            requireNotEmpty(path);
            return new ResolvedModel(name, path, sha256(path), Files.size(path), description);
        } catch (IOException e) {
            throw new BenchmarkException("Could not read model file " + path + ": check that it exists and is readable", e);
        }
    }

    /**
     * An export folder's identity: the SHA-256 of the lines {@code "<file> <its sha256>"} of every file its model is made
     * of ({@link ExportFolder#files()}), so a changed graph or weight file changes it; its size, theirs summed.
     */
    private static ResolvedModel describeFolder(String name, ExportFolder export, String kind) {
        try {
            StringBuilder lines = new StringBuilder();
            long size = 0;
            for (Path file : export.files()) {
                lines.append(file.getFileName()).append(' ').append(sha256(file)).append('\n');
                size += Files.size(file);
            }
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            String hash = HexFormat.of().formatHex(digest.digest(lines.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            return new ResolvedModel(name, export.dir(), hash, size, kind + export.describe());
        } catch (IOException e) {
            throw new BenchmarkException("Could not read the export folder " + export.dir() + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM provides SHA-256", e);
        }
    }

    public static String sha256(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM provides SHA-256", e);
        }
    }
}
