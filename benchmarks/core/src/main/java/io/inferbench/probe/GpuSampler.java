package io.inferbench.probe;

import io.inferbench.BenchmarkException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Samples one GPU through {@code nvidia-smi}, streamed from one process per fork JVM:
 * {@code nvidia-smi --query-gpu=timestamp,index,utilization.gpu,memory.used,memory.total,power.draw,clocks.sm,
 * clocks_throttle_reasons.active --format=csv,nounits -lms 100 -i INDEX}. No NVML binding for Java is kept on Maven
 * Central (the ones there are unmaintained JNA wrappers that need the same driver library), so the driver's own tool
 * is the sampler, as perf_analyzer's and optimum-benchmark's users run it beside them.
 *
 * <p><b>Off the timed path.</b> The sampler is another process; this JVM only reads its lines, on a daemon thread that
 * sleeps in a blocking read between them (ten lines a second), and works out a measurement's figures after the
 * measurement has ended ({@link #use}). Samples are placed by nvidia-smi's own timestamp, the moment it sampled, so a
 * pipe that delivers lines late does not shift them; {@link #use} waits (untimed, at most {@value #AWAIT_MS} ms) for
 * the first sample past the measurement's end before it sums.
 *
 * <p><b>What a sample means.</b> {@code utilization.gpu} is the share of the driver's sample period in which any kernel
 * ran, so a GPU that one small kernel keeps busy reads 100%; {@code power.draw} is the board's, averaged by the driver;
 * {@code memory.used} is the whole device's. Energy is the mean sampled power times the measurement's wall time: with
 * a 100 ms interval a measurement of a second has about ten samples, and the note says how many.
 */
public final class GpuSampler implements Probe<GpuUse>, AutoCloseable {
    /** Its name as a {@link Probe}. */
    public static final String NAME = "gpu";
    /** The binary when {@code -Dbench.nvidiaSmi} does not name another. */
    public static final String DEFAULT_BINARY = "nvidia-smi";
    /** The sampling interval asked of nvidia-smi ({@code -lms}): 10 Hz, the rate the power figures need. */
    public static final int INTERVAL_MS = 100;
    /** The longest wait for the first sample after start, and for the sample past a measurement's end. */
    static final long AWAIT_MS = 2_000;
    /** The fields, with the throttle reasons under their older name, which every driver since 2013 accepts. */
    static final String FIELDS = "timestamp,index,utilization.gpu,memory.used,memory.total,power.draw,clocks.sm,"
            + "clocks_throttle_reasons.active";

    private final String binary;
    private final String command;
    private final Process process;
    private final ZoneId zone;
    private final List<GpuSample> samples = new ArrayList<>();
    private final List<String> other = new ArrayList<>();
    private volatile String ended;
    private boolean closed;

    private GpuSampler(String binary, String command, Process process, ZoneId zone) {
        this.binary = binary;
        this.command = command;
        this.process = process;
        this.zone = zone;
    }

    /**
     * Starts sampling device {@code index} with {@code binary}; waits for its first sample (or its end) so that a
     * sampler that cannot run says why before the first cell. A missing binary gives a sampler that is unavailable
     * (every {@link #use} says why), not an error: the latency figures do not need it.
     *
     * @param binary the nvidia-smi to run; null means {@link #DEFAULT_BINARY}, the one on the PATH
     */
    public static GpuSampler start(String binary, int index) {
        if (binary == null) {
            binary = DEFAULT_BINARY;
        }
        List<String> args = List.of(binary, "--query-gpu=" + FIELDS, "--format=csv,nounits", "-lms", String.valueOf(INTERVAL_MS),
                "-i", String.valueOf(index));
        String command = String.join(" ", args);
        Process process;
        try {
            process = new ProcessBuilder(args).redirectErrorStream(true).start();
        } catch (IOException e) {
            GpuSampler none = new GpuSampler(binary, command, null, ZoneId.systemDefault());
            none.ended = binary + " could not be started (" + e.getMessage() + "): install the NVIDIA driver's nvidia-smi, or "
                    + "point -Dbench.nvidiaSmi at it";
            return none;
        }
        try {
            process.getOutputStream().close(); // it reads nothing
        } catch (IOException ignored) {
            // a stdin that cannot be closed changes nothing
        }
        GpuSampler sampler = new GpuSampler(binary, command, process, ZoneId.systemDefault());
        Thread reader = new Thread(sampler::read, "inferbench-nvidia-smi");
        reader.setDaemon(true);
        reader.start();
        sampler.awaitSample(Long.MIN_VALUE);
        return sampler;
    }

    /** Checks a {@code -Dbench.nvidiaSmi} the user gave before anything runs: it must be an executable file. */
    public static void checkExecutable(String binary) {
        Path path = Path.of(binary);
        if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
            throw new BenchmarkException("-Dbench.nvidiaSmi=" + binary + " is not an executable file: point it at the NVIDIA "
                    + "driver's nvidia-smi (usually /usr/bin/nvidia-smi), or leave it out to use the one on the PATH");
        }
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            Map<String, Integer> columns = null;
            String line;
            while ((line = in.readLine()) != null) {
                Map<String, Integer> header = GpuSample.header(line);
                GpuSample sample = header != null || columns == null ? null : GpuSample.parse(columns, line, zone);
                synchronized (this) {
                    if (header != null) {
                        columns = header;
                    } else if (sample != null) {
                        samples.add(sample);
                    } else if (other.size() < 5) {
                        other.add(line.trim());
                    }
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // the stream closed: the reason is set below
        }
        synchronized (this) {
            if (ended == null) {
                ended = command + " ended" + (other.isEmpty() ? "" : ": " + String.join(" | ", other));
            }
            notifyAll();
        }
    }

    /** Waits until a sample taken at or after {@code epochMs} has arrived, the sampler has ended, or the wait is over. */
    private synchronized void awaitSample(long epochMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(AWAIT_MS);
        while (ended == null && (samples.isEmpty() || at(samples.get(samples.size() - 1)) < epochMs)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A sample's time: nvidia-smi's timestamp. */
    private static long at(GpuSample s) {
        return s.epochMs() == null ? Long.MIN_VALUE : s.epochMs();
    }

    /** Why there are no samples, or null while sampling works. */
    public synchronized String unavailable() {
        if (!samples.isEmpty()) {
            return null;
        }
        return ended != null ? ended : command + " gave no sample within " + AWAIT_MS + " ms"
                + (other.isEmpty() ? "" : ": " + String.join(" | ", other));
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Nothing: it samples all along, and {@link #stop} picks the window's samples. */
    @Override
    public Object start() {
        return null;
    }

    /** {@link #use} over the window; it may wait for the sample after the window's end, so it is stopped last. */
    @Override
    public GpuUse stop(Object started, Window window) {
        return use(window.startNs(), window.endNs(), window.passes(), window.samplesPerPass());
    }

    /**
     * What the GPU did between {@code startNs} and {@code endNs} ({@link System#nanoTime()}), for {@code passes} passes of
     * {@code batch} samples. Called after the measurement, never during it.
     */
    public GpuUse use(long startNs, long endNs, long passes, int batch) {
        long nowNs = System.nanoTime();
        long nowEpochMs = System.currentTimeMillis();
        long startEpochMs = nowEpochMs - TimeUnit.NANOSECONDS.toMillis(nowNs - startNs);
        long endEpochMs = nowEpochMs - TimeUnit.NANOSECONDS.toMillis(nowNs - endNs);
        awaitSample(endEpochMs);
        List<GpuSample> within;
        String why;
        synchronized (this) {
            within = samples.stream().filter(s -> s.epochMs() != null && s.epochMs() >= startEpochMs && s.epochMs() <= endEpochMs)
                    .toList();
            why = within.isEmpty() && ended != null ? ended : unavailable();
        }
        return of(within, (endNs - startNs) / 1e6, passes, batch, command, why);
    }

    /** The figures of {@code within}, taken over {@code wallMs}; or why there are none. */
    static GpuUse of(List<GpuSample> within, double wallMs, long passes, int batch, String source, String unavailable) {
        if (unavailable != null) {
            return GpuUse.unavailable(source, INTERVAL_MS, unavailable);
        }
        if (within.isEmpty()) {
            return GpuUse.unavailable(source, INTERVAL_MS, String.format(java.util.Locale.ROOT, "no sample within the "
                    + "measurement's %.0f ms (nvidia-smi samples every %d ms)", wallMs, INTERVAL_MS));
        }
        DoubleSummaryStatistics util = stats(within.stream().map(GpuSample::utilisationPercent).toList());
        DoubleSummaryStatistics used = stats(within.stream().map(GpuSample::memoryUsedMb).toList());
        DoubleSummaryStatistics total = stats(within.stream().map(GpuSample::memoryTotalMb).toList());
        DoubleSummaryStatistics watts = stats(within.stream().map(GpuSample::powerWatts).toList());
        DoubleSummaryStatistics clock = stats(within.stream().map(GpuSample::smClockMhz).toList());
        long mask = within.stream().map(GpuSample::throttleMask).filter(Objects::nonNull).reduce(0L, (a, b) -> a | b);
        boolean anyMask = within.stream().anyMatch(s -> s.throttleMask() != null);
        Double meanWatts = watts.getCount() == 0 ? null : watts.getAverage();
        Double joules = meanWatts == null ? null : meanWatts * wallMs / 1e3;
        return new GpuUse(within.size(), INTERVAL_MS, new GpuUse.Utilisation(mean(util), max(util)),
                new GpuUse.Memory(max(used), max(total), null),
                new GpuUse.Power(meanWatts, max(watts), joules, joules == null || passes <= 0 ? null : joules / passes,
                        joules == null || passes <= 0 ? null : joules / (passes * (double) batch) * 1000),
                new GpuUse.Clocks(mean(clock), min(clock), anyMask ? GpuSample.reasons(mask) : null), source, null);
    }

    /**
     * This process's GPU memory now, from {@code --query-compute-apps=pid,used_memory}: MiB, or null where the driver does
     * not list it (inside a container without the host's PID namespace it lists none). Run between cells, never during
     * a measurement.
     */
    public Double processMemoryMb(long pid) {
        if (process == null) {
            return null;
        }
        try {
            Process apps = new ProcessBuilder(binary, "--query-compute-apps=pid,used_memory", "--format=csv,noheader,nounits")
                    .redirectErrorStream(true).start();
            apps.getOutputStream().close();
            String out = new String(apps.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!apps.waitFor(5, TimeUnit.SECONDS)) {
                apps.destroyForcibly();
                return null;
            }
            double mb = 0;
            boolean found = false;
            for (String line : out.split("\n")) {
                String[] parts = line.split(",");
                if (parts.length == 2 && parts[0].trim().equals(Long.toString(pid))) {
                    mb += Double.parseDouble(parts[1].trim().split("\\s+")[0]);
                    found = true;
                }
            }
            return found ? mb : null;
        } catch (IOException | NumberFormatException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static DoubleSummaryStatistics stats(List<Double> values) {
        return values.stream().filter(Objects::nonNull).mapToDouble(Double::doubleValue).summaryStatistics();
    }

    private static Double mean(DoubleSummaryStatistics s) {
        return s.getCount() == 0 ? null : s.getAverage();
    }

    private static Double max(DoubleSummaryStatistics s) {
        return s.getCount() == 0 ? null : s.getMax();
    }

    private static Double min(DoubleSummaryStatistics s) {
        return s.getCount() == 0 ? null : s.getMin();
    }

    /** Stops the nvidia-smi process. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (ended == null) {
            ended = command + " was stopped";
        }
        if (process != null) {
            process.destroy();
        }
    }
}
