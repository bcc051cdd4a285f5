package io.inferbench.runner;

import io.inferbench.Text;
import io.inferbench.measure.SetAside;
import io.inferbench.results.CellFork;
import io.inferbench.results.RunTiming;

import java.util.EnumMap;
import java.util.Map;

/**
 * Where a run's wall time goes (see {@link RunTiming}): each stage's wall time, as the pipeline measured it, goes to the
 * part its stage names; the sweep adds its fork JVMs' start-up and session creation. The measured passes and the
 * warm-ups are not timed here but summed from what each fork recorded ({@link CellFork}): the exact sum of the measured
 * passes' latencies, and each cell's first pass plus its warm-up's wall time. Thread-safe: an A/B duet's two subjects
 * add their fork JVMs at the same time.
 */
public final class TimeAccount {
    /** A part of the run's wall time: a stage's (the analysis, resources and comparison count as {@code REPORT}), or the sweep's. */
    public enum Phase { PREFLIGHT, SWEEP, JVM_START, ENGINE_AND_SESSION, PROFILE, AGREEMENT, WORKLOAD, SERVING, REPORT }

    private final long startNs = System.nanoTime();
    private final Map<Phase, Double> seconds = new EnumMap<>(Phase.class);
    private int jvmStarts;

    /** Adds wall time to a part: a stage's whole wall time ({@code io.inferbench.pipeline.Pipeline}), or a JVM's start-up. */
    public synchronized void add(Phase phase, double addSeconds) {
        seconds.merge(phase, addSeconds, Double::sum);
    }

    public synchronized void jvmStarted() {
        jvmStarts++;
    }

    public synchronized double seconds(Phase phase) {
        return seconds.getOrDefault(phase, 0.0);
    }

    /** The account up to now, with the measured units and warm-ups of {@code forks} (every cell's, every kind's). */
    public synchronized RunTiming close(Iterable<CellFork> forks) {
        double wall = (System.nanoTime() - startNs) / 1e9;
        double measuredMs = 0;
        double warmupMs = 0;
        double setAsideMs = 0;
        for (CellFork fork : forks) {
            measuredMs += fork.measurement().passesMs();
            warmupMs += fork.warmup().wallMs() + (Double.isNaN(fork.firstPassMs()) ? 0 : fork.firstPassMs());
            if (fork.measurement().setAside() != null) {
                setAsideMs += fork.measurement().setAside().stream().mapToDouble(SetAside::wallMs).sum();
            }
        }
        double measured = measuredMs / 1000;
        double warmup = warmupMs / 1000;
        double setAside = setAsideMs / 1000;
        double sweep = seconds(Phase.SWEEP);
        double sweepOverhead = Math.max(0, sweep - measured - warmup - setAside - seconds(Phase.JVM_START)
                - seconds(Phase.ENGINE_AND_SESSION));
        double accounted = seconds(Phase.PREFLIGHT) + sweep + seconds(Phase.PROFILE) + seconds(Phase.AGREEMENT)
                + seconds(Phase.WORKLOAD) + seconds(Phase.SERVING) + seconds(Phase.REPORT);
        return new RunTiming(wall, seconds(Phase.PREFLIGHT), sweep,
                new RunTiming.InSweep(measured, warmup, setAside, jvmStarts, seconds(Phase.JVM_START),
                        seconds(Phase.ENGINE_AND_SESSION), sweepOverhead),
                new RunTiming.AfterSweep(seconds(Phase.PROFILE), seconds(Phase.AGREEMENT), seconds(Phase.WORKLOAD),
                        seconds(Phase.SERVING), seconds(Phase.REPORT)),
                Math.max(0, wall - accounted),
                new RunTiming.Shares(sweep > 0 ? measured / sweep : 0, wall > 0 ? measured / wall : 0));
    }

    /** The account as one console line. */
    public static String line(RunTiming t) {
        StringBuilder line = new StringBuilder(Text.f("[inferbench] time: %s wall; sweep %s, of which measured passes %s "
                        + "(%.0f%% of the sweep), warm-up %s,%s %d JVM start(s) %s, engine load and session creation %s, other %s; "
                        + "preflight %s", Progress.duration(t.wallSeconds()), Progress.duration(t.sweepSeconds()),
                Progress.duration(t.measuredPassesSeconds()), 100 * t.timedShareOfSweep(), Progress.duration(t.warmupSeconds()),
                t.setAsideSeconds() > 0 ? " set aside as disturbed and measured again " + Progress.duration(t.setAsideSeconds())
                        + "," : "",
                t.jvmStarts(), Progress.duration(t.jvmStartSeconds()), Progress.duration(t.engineAndSessionSeconds()),
                Progress.duration(t.sweepOverheadSeconds()), Progress.duration(t.preflightSeconds())));
        part(line, "profile", t.profileSeconds());
        part(line, "agreement", t.agreementSeconds());
        part(line, "workload", t.workloadSeconds());
        part(line, "serving", t.servingSeconds());
        part(line, "report", t.reportSeconds());
        part(line, "other", t.otherSeconds());
        line.append(Text.f(". Measured passes are %.0f%% of the wall time", 100 * t.timedShareOfWall()));
        return line.toString();
    }

    private static void part(StringBuilder line, String name, double value) {
        if (value > 0.05) {
            line.append("; ").append(name).append(' ').append(Progress.duration(value));
        }
    }
}
