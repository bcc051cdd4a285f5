package io.inferbench.sweep;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.backend.Backends;
import io.inferbench.backend.Device;
import io.inferbench.model.ModelSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;

/**
 * A sweep's settings, read from {@code bench.*} system properties and validated before anything runs.
 *
 * <p>Every list is comma-separated. {@code bench.seq} empty means "the lengths in {@code bench.buckets}";
 * {@code bench.threads} empty means one intra-op thread per available processor (the resolved number is what
 * gets recorded). Counts are forward passes per fork: {@code warmupPasses} are run and discarded,
 * {@code measuredPasses} are recorded.
 */
public record SweepOptions(
        List<String> backends,
        List<String> devices,
        List<String> models,
        List<Integer> seqLens,
        String bucketsFile,
        List<Integer> batches,
        int warmupPasses,
        int measuredPasses,
        int forks,
        int intraOpThreads,
        int interOpThreads,
        long seed,
        Path resultsDir,
        Path cacheDir,
        boolean allowCpuFallback,
        String forkJvmArgs,
        RegimeThresholds regimeThresholds) {

    /** Largest batch x seqLen accepted: beyond this the int64 inputs alone would pass 2 GiB. */
    static final long MAX_TOKENS_PER_BATCH = Integer.MAX_VALUE / Long.BYTES;

    public static SweepOptions fromProperties(Properties p) {
        List<String> backends = names(p.getProperty("bench.backend", "onnxruntime,djl"), "bench.backend");
        for (String backend : backends) {
            Backends.byName(backend);
        }
        List<String> devices = names(p.getProperty("bench.device", "cpu"), "bench.device");
        devices = devices.stream().map(d -> Device.parse(d).toString()).distinct().toList();
        List<String> models = names(p.getProperty("bench.model", "tiny"), "bench.model");
        for (String model : models) {
            ModelSource source = ModelSource.parse(model);
            if (backends.stream().noneMatch(backend -> Backends.canLoad(backend, source))) {
                throw new BenchmarkException("None of the backends " + backends + " loads " + model + ": ONNX Runtime "
                        + "loads .onnx files, DJL TorchScript .pt files. Add the right one to -Dbench.backend");
            }
        }
        String seqProperty = p.getProperty("bench.seq", "");
        String bucketsFile = null;
        List<Integer> seqLens;
        if (seqProperty.isBlank()) {
            String buckets = p.getProperty("bench.buckets", "");
            if (buckets.isBlank()) {
                throw new BenchmarkException("No sequence lengths: set -Dbench.seq=64,256 or -Dbench.buckets=buckets/default.buckets");
            }
            bucketsFile = Path.of(buckets).toAbsolutePath().normalize().toString();
            seqLens = BucketFile.read(Path.of(bucketsFile));
        } else {
            seqLens = positiveInts(seqProperty, "bench.seq");
        }
        List<Integer> batches = positiveInts(p.getProperty("bench.batch", "1,2,4,8"), "bench.batch");
        for (int seq : seqLens) {
            for (int batch : batches) {
                if ((long) seq * batch > MAX_TOKENS_PER_BATCH) {
                    throw new BenchmarkException("batch " + batch + " x seqLen " + seq + " = " + ((long) seq * batch)
                            + " tokens is more than one input tensor can hold (" + MAX_TOKENS_PER_BATCH
                            + "); lower -Dbench.batch or -Dbench.seq");
                }
            }
        }
        String threads = p.getProperty("bench.threads", "");
        int intraOpThreads = threads.isBlank() ? Runtime.getRuntime().availableProcessors()
                : positiveInt(threads, "bench.threads");
        String results = p.getProperty("bench.results", "results");
        String cache = p.getProperty("bench.cache", "");
        Path cacheDir = cache.isBlank()
                ? Path.of(System.getProperty("user.home"), ".cache", "inferbench", "models")
                : Path.of(cache);
        return new SweepOptions(backends, devices, models, seqLens, bucketsFile, batches,
                nonNegativeInt(p.getProperty("bench.warmup", "10"), "bench.warmup"),
                positiveInt(p.getProperty("bench.iterations", "40"), "bench.iterations"),
                positiveInt(p.getProperty("bench.forks", "3"), "bench.forks"),
                intraOpThreads,
                positiveInt(orDefault(p, "bench.interopThreads", "1"), "bench.interopThreads"),
                parseLong(p.getProperty("bench.seed", "42"), "bench.seed"),
                Path.of(results).toAbsolutePath().normalize(),
                cacheDir.toAbsolutePath().normalize(),
                Boolean.parseBoolean(p.getProperty("bench.allowCpuFallback", "false").trim()),
                p.getProperty("bench.jvmArgs", "").trim(),
                RegimeThresholds.fromProperties(p, RegimeThresholds.DEFAULTS));
    }

    /** The property's value, or {@code fallback} when it is absent or blank (Maven passes empty properties as ""). */
    private static String orDefault(Properties p, String name, String fallback) {
        String value = p.getProperty(name, "");
        return value.isBlank() ? fallback : value;
    }

    private static List<String> names(String value, String property) {
        List<String> names = Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).distinct().toList();
        if (names.isEmpty()) {
            throw new BenchmarkException("-D" + property + " is empty: give at least one value");
        }
        return names;
    }

    static List<Integer> positiveInts(String value, String property) {
        List<Integer> values = new ArrayList<>(new LinkedHashSet<>(
                names(value, property).stream().map(v -> positiveInt(v, property)).toList()));
        return List.copyOf(values);
    }

    static int positiveInt(String value, String what) {
        int parsed = parseInt(value, what);
        if (parsed <= 0) {
            throw new BenchmarkException(what + " must be 1 or more, got " + parsed
                    + ": a forward pass needs at least one sample and one token");
        }
        return parsed;
    }

    private static int nonNegativeInt(String value, String what) {
        int parsed = parseInt(value, what);
        if (parsed < 0) {
            throw new BenchmarkException(what + " must be 0 or more, got " + parsed);
        }
        return parsed;
    }

    private static int parseInt(String value, String what) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new BenchmarkException(what + " must be a whole number, got '" + value + "'", e);
        }
    }

    private static long parseLong(String value, String what) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new BenchmarkException(what + " must be a whole number, got '" + value + "'", e);
        }
    }
}
