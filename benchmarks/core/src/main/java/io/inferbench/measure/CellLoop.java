package io.inferbench.measure;

import io.inferbench.probe.CpuUse;
import io.inferbench.probe.Probe;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One cell's warm-up and measurement in one fork: passes timed by a {@link PassRecorder} until the
 * {@link WarmupRule} says steady, then until the {@link StopRule} says precise (or either reaches its cap, or a fixed
 * count). The rules run between passes, outside the timed region; each computes what it needs from values it already
 * holds (a window of warm-up latencies, the measured histogram), so a check costs microseconds next to any pass.
 *
 * <p>The clock and the JIT's clock are parameters so that tests drive the loop with fakes; in a fork they are
 * {@link NanoClock#SYSTEM} and {@link JitClock#jvm()}.
 */
public final class CellLoop {
    private static final double NS_PER_MS = 1_000_000.0;

    private final PassRecorder recorder;
    private final MeasurePolicy policy;
    private final NanoClock clock;
    private final JitClock jit;
    private final List<Probe<?>> probes;
    private final int engineThreads;
    private final int samplesPerPass;
    private long checksum;

    /** A loop that reads no probe: its measurements hold time alone. */
    public CellLoop(PassRecorder recorder, MeasurePolicy policy, NanoClock clock, JitClock jit) {
        this(recorder, policy, clock, jit, List.of(), 1, 1);
    }

    /**
     * @param probes         started before each measurement's passes and stopped after them, never between them
     *                       ({@link Probe#all()}, and on CUDA the GPU's sampler last, whose clock is
     *                       {@link System#nanoTime()} as {@link NanoClock#SYSTEM}'s is); the {@code cpu} reading is what
     *                       the disturbed rule judges
     * @param engineThreads  the threads the engine was given, the 100% of the CPU utilisation
     * @param samplesPerPass the batch, for figures per sample
     */
    public CellLoop(PassRecorder recorder, MeasurePolicy policy, NanoClock clock, JitClock jit, List<Probe<?>> probes,
                    int engineThreads, int samplesPerPass) {
        this.probes = List.copyOf(probes);
        this.recorder = recorder;
        this.policy = policy;
        this.clock = clock;
        this.jit = jit;
        this.engineThreads = engineThreads;
        this.samplesPerPass = samplesPerPass;
    }

    /** Whether other processes took more than {@link #DISTURBED_PERCENT} of the machine during a measurement. */
    public static boolean disturbed(CpuUse used) {
        return used != null && used.otherProcessesPercent() != null && used.otherProcessesPercent() > DISTURBED_PERCENT;
    }

    /** The sum of every pass's output checksum so far, for the caller's blackhole. */
    public long checksum() {
        return checksum;
    }

    /** Warm-up passes until the rule ends it. */
    public WarmupOutcome warmUp(Pass pass) {
        recorder.beginPhase(PassRecorder.Phase.WARMUP);
        WarmupRule rule = new WarmupRule(policy.warmup());
        long compileStart = jit.totalCompilationMs();
        long start = clock.nanoTime();
        WarmupEnd end = rule.end();
        while (end == null) {
            checksum += recorder.timePass(pass);
            end = rule.afterPass(recorder.lastPassNs(), clock.nanoTime() - start, jit.totalCompilationMs());
        }
        long wallNs = clock.nanoTime() - start;
        return new WarmupOutcome(rule.passes(), wallNs / NS_PER_MS, compiled(compileStart), end);
    }

    /**
     * Other processes' share of the machine above which a measurement is not of this cell alone: set aside and measured
     * again, at most {@link #MAX_REMEASURES} times. On 2 cores an engine with 2 threads loses a thread's worth of
     * progress at every barrier another process wins, so a tenth of the machine taken by others slowed an engine's passes by
     * far more than a tenth (up to 20 times at half the machine); the machine's own background (the kernel's threads,
     * this JVM's sweep parent) stays near 1-2%.
     */
    public static final double DISTURBED_PERCENT = 10;
    /** How many disturbed measurements a cell sets aside before it keeps the last one, marked. */
    public static final int MAX_REMEASURES = 2;

    /**
     * Measured passes until the rule stops them. When other processes took more than {@link #DISTURBED_PERCENT} of the
     * machine meanwhile (read from {@code /proc/stat}, where readable), the passes are set aside (kept apart by the
     * recorder, summarised in the outcome's {@code setAside}) and the cell measured again, up to {@link #MAX_REMEASURES}
     * times; the last measurement is kept whatever it saw.
     */
    public MeasureOutcome measure(Pass pass) {
        return measure(pass, MAX_REMEASURES);
    }

    /**
     * As {@link #measure(Pass)}, setting aside at most {@code remeasures} disturbed measurements: 0 keeps the first,
     * marked, where what disturbed it falls on everything it compares alike (a unit of two sides' calls,
     * microseconds apart), so measuring again would only cost time.
     */
    public MeasureOutcome measure(Pass pass, int remeasures) {
        recorder.beginPhase(PassRecorder.Phase.MEASUREMENT);
        List<SetAside> setAside = new ArrayList<>();
        while (true) {
            MeasureOutcome outcome = measureOnce(pass);
            CpuUse used = outcome.cpu();
            if (!disturbed(used) || setAside.size() >= remeasures) {
                return setAside.isEmpty() ? outcome : outcome.withSetAside(List.copyOf(setAside));
            }
            setAside.add(new SetAside(outcome.passes(), outcome.wallMs(),
                    recorder.measuredNs().getValueAtPercentile(50) / NS_PER_MS, used.otherProcessesPercent()));
            recorder.discardMeasurement();
        }
    }

    private MeasureOutcome measureOnce(Pass pass) {
        StopRule rule = new StopRule(policy.stop());
        long compileStart = jit.totalCompilationMs();
        Map<Probe<?>, Object> started = Probe.startAll(probes);
        long start = clock.nanoTime();
        MeasureEnd end = null;
        while (end == null) {
            checksum += recorder.timePass(pass);
            end = rule.afterPass(recorder.measuredNs(), clock.nanoTime() - start);
        }
        long endNs = clock.nanoTime();
        long wallNs = endNs - start;
        Probe.Readings read = Probe.stopAll(started,
                new Probe.Window(start, endNs, recorder.measuredNs().getTotalCount(), samplesPerPass, engineThreads));
        MedianInterval interval = rule.interval();
        return MeasureOutcome.of(recorder.measuredNs().getTotalCount(), wallNs / NS_PER_MS,
                recorder.measuredSumNs() / NS_PER_MS, compiled(compileStart),
                interval == null ? null : 100 * interval.halfWidth(), policy.stop().confidence(), end, read);
    }

    /**
     * Runs both rules over synthetic passes, so that their classes (Commons Math's binomial distribution among them)
     * are loaded and their code compiled before the first cell's warm-up and measurement instead of during them: on 2
     * cores the compiler thread would otherwise take a core from the engine during the first measured passes. Once per
     * fork JVM, before its first cell; it times nothing.
     *
     * @param passes synthetic passes to run each rule over
     * @return what the rules decided over them: how many warm-ups ended steady, and the p50 interval's half-width
     */
    public static Primed primeRules(int passes) {
        SplittableRandom random = new SplittableRandom(12345);
        WarmupPolicy windows = new WarmupPolicy(null, 0.05, 1, 2, 0.05, 0, Long.MAX_VALUE / 2_000_000);
        WarmupRule warmup = new WarmupRule(windows);
        StopRule stop = new StopRule(new StopPolicy(null, 1e-9, 0.95, 1, 0, Long.MAX_VALUE / 2_000_000));
        Histogram histogram = PassRecorder.newHistogram();
        long elapsedNs = 0;
        int warmupsEnded = 0;
        for (int i = 0; i < passes; i++) {
            long passNs = 1_000_000 + random.nextInt(100_000);
            elapsedNs += passNs;
            if (warmup.afterPass(passNs, elapsedNs, -1) != null) {
                warmupsEnded++;
                warmup = new WarmupRule(windows);
            }
            histogram.recordValue(passNs);
            stop.afterPass(histogram, elapsedNs);
        }
        MedianInterval interval = MedianInterval.of(histogram, 0.95);
        return new Primed(warmupsEnded, interval == null ? null : 100 * interval.halfWidth());
    }

    /** What priming decided: nothing of it is kept, but a test can see that the rules ran. */
    public record Primed(int warmupsEnded, Double p50HalfWidthPercent) {
    }

    private Double compiled(long startMs) {
        long now = jit.totalCompilationMs();
        return startMs < 0 || now < 0 ? null : (double) (now - startMs);
    }
}
