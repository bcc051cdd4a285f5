package io.inferbench.environment;

import io.inferbench.results.CpuIdentity;
import io.inferbench.results.EnvironmentInfo;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Reads the conditions a run is measured under. Each probe degrades to a stated "unknown" rather than failing
 * the run: on a machine without NVIDIA tools, {@code gpus} is null and {@code gpuNote} says why.
 */
public final class EnvironmentProbe {
    /** Artifacts whose versions go into every run, as groupId:artifactId. */
    private static final List<String> LIBRARIES = List.of(
            "org.openjdk.jmh:jmh-core",
            "org.hdrhistogram:HdrHistogram",
            "com.fasterxml.jackson.core:jackson-databind",
            "org.tribuo:tribuo-util-onnx",
            "org.apache.commons:commons-math3");

    private EnvironmentProbe() {
    }

    public static EnvironmentInfo collect(Map<String, String> engines) {
        Map<String, String> libraries = new LinkedHashMap<>();
        for (String coordinate : LIBRARIES) {
            String[] ga = coordinate.split(":");
            libraries.put(ga[1], mavenVersion(ga[0], ga[1]));
        }
        // protobuf-java ships no Maven metadata; its OSGi manifest carries the version.
        String protobuf = com.google.protobuf.Message.class.getPackage().getImplementationVersion();
        libraries.put("protobuf-java", protobuf != null ? protobuf : bundleVersion(com.google.protobuf.Message.class));
        GpuQuery gpu = queryGpus();
        return new EnvironmentInfo(
                new EnvironmentInfo.Machine(System.getProperty("os.name"), System.getProperty("os.version"),
                        System.getProperty("os.arch"), cpuModel(), Runtime.getRuntime().availableProcessors(),
                        memoryBytes()),
                new EnvironmentInfo.Jvm(System.getProperty("java.vm.vendor"),
                        System.getProperty("java.runtime.version", System.getProperty("java.version")),
                        System.getProperty("java.vm.name"), libraries.get("jmh-core")),
                Map.copyOf(engines),
                libraries,
                gpu.gpus(),
                gpu.note(),
                cpuIdentity(Path.of("/proc/cpuinfo"), Path.of("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")));
    }

    /** The first processor's identity from a {@code /proc/cpuinfo} and a cpufreq {@code cpuinfo_max_freq} (kHz). */
    static CpuIdentity cpuIdentity(Path cpuinfo, Path maxFreqKhz) {
        Map<String, String> fields = new LinkedHashMap<>();
        if (Files.isReadable(cpuinfo)) {
            try {
                for (String line : Files.readAllLines(cpuinfo, StandardCharsets.UTF_8)) {
                    if (line.isBlank() && !fields.isEmpty()) {
                        break;
                    }
                    int colon = line.indexOf(':');
                    if (colon > 0) {
                        fields.putIfAbsent(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
                    }
                }
            } catch (IOException ignored) {
                // every field stays null
            }
        }
        java.util.Set<String> flags = new java.util.HashSet<>(List.of(fields.getOrDefault("flags", "").split("\\s+")));
        Double maxMhz = null;
        if (Files.isReadable(maxFreqKhz)) {
            try {
                maxMhz = Long.parseLong(Files.readString(maxFreqKhz).trim()) / 1000.0;
            } catch (IOException | NumberFormatException ignored) {
                // not readable: null
            }
        }
        return new CpuIdentity(fields.get("vendor_id"), integer(fields.get("cpu family")), integer(fields.get("model")),
                integer(fields.get("stepping")), CpuIdentity.FLAGS_THAT_MATTER.stream().filter(flags::contains).toList(), maxMhz);
    }

    private static Integer integer(String value) {
        try {
            return value == null ? null : Integer.valueOf(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static String mavenVersion(String groupId, String artifactId) {
        String resource = "/META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
        try (InputStream in = EnvironmentProbe.class.getResourceAsStream(resource)) {
            if (in == null) {
                return "unknown (no Maven metadata on the classpath)";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private static String bundleVersion(Class<?> type) {
        try (InputStream in = type.getProtectionDomain().getCodeSource().getLocation().openStream();
             java.util.jar.JarInputStream jar = new java.util.jar.JarInputStream(in)) {
            java.util.jar.Manifest manifest = jar.getManifest();
            String version = manifest == null ? null : manifest.getMainAttributes().getValue("Bundle-Version");
            return version != null ? version : "unknown (no version in the jar's manifest)";
        } catch (IOException | RuntimeException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    static String cpuModel() {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            try {
                for (String line : Files.readAllLines(cpuinfo, StandardCharsets.UTF_8)) {
                    if (line.startsWith("model name") && line.contains(":")) {
                        return line.substring(line.indexOf(':') + 1).trim();
                    }
                }
            } catch (IOException ignored) {
                // fall through to the architecture
            }
        }
        return "unknown (" + System.getProperty("os.arch") + ")";
    }

    private static long memoryBytes() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return -1;
    }

    /** What {@code nvidia-smi} says: each GPU's index, name, driver and memory, or null and why not. */
    public record GpuQuery(List<String> gpus, String note) {
    }

    public static GpuQuery queryGpus() {
        try {
            Process process = new ProcessBuilder("nvidia-smi",
                    "--query-gpu=index,name,driver_version,memory.total", "--format=csv,noheader")
                    .redirectErrorStream(true).start();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new GpuQuery(null, "nvidia-smi did not answer within 10 s");
            }
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (process.exitValue() != 0 || out.isEmpty()) {
                return new GpuQuery(null, "nvidia-smi failed (exit " + process.exitValue() + "): " + out);
            }
            return new GpuQuery(out.lines().map(String::trim).toList(), "nvidia-smi --query-gpu=index,name,driver_version,memory.total");
        } catch (IOException e) {
            return new GpuQuery(null, "no NVIDIA GPU detected: nvidia-smi is not on the PATH");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new GpuQuery(null, "interrupted while querying nvidia-smi");
        }
    }
}
