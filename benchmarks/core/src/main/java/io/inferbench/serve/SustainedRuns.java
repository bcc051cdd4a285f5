package io.inferbench.serve;

import io.inferbench.Text;
import io.inferbench.engine.InferenceSession;
import io.inferbench.probe.GpuSampler;
import io.inferbench.report.AblationTable;
import io.inferbench.report.SoakTable;
import io.inferbench.results.AblationResult;
import io.inferbench.results.SoakResult;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The two long loads after a model's points, each at one rate ({@link SustainedLoad}): the ablation (the load again with
 * parts of the path replaced, {@link AblationRun}) and the soak (one load cut into windows, {@link SoakRun}). Each is
 * announced before it starts, and printed when it ends.
 */
final class SustainedRuns {
    private final ServeOptions options;
    private final PrintStream console;
    private final RequestShape inputs;
    private final int rowsPerRequest;
    private final long engineSeed;

    /**
     * @param inputs     the workload requests are drawn from, or null
     * @param engineSeed the seed of the requests' synthetic ids (the sessions')
     */
    SustainedRuns(ServeOptions options, PrintStream console, RequestShape inputs, int rowsPerRequest, long engineSeed) {
        this.options = options;
        this.console = console;
        this.inputs = inputs;
        this.rowsPerRequest = rowsPerRequest;
        this.engineSeed = engineSeed;
    }

    AblationResult ablate(InferenceSession session, SoakRun.Target target, SustainedLoad load)
            throws InterruptedException {
        if (load.policy() == null) {
            console.println("[inferbench] ablation not run: " + load.source());
            return new AblationResult(target.backend(), target.device(), target.model(), null, 0, load.source(),
                    options.pointSeconds(), List.of(), List.of(), null, List.of("every part: " + load.source()));
        }
        console.println(Text.f("[inferbench] ablation, %s, %s at %.1f requests/s (%s), %s s per part: full, no-op engine, "
                        + "%soutputs unread, full again", target.backend() + "/" + target.device() + "/"
                        + Text.shortModelName(target.model()), load.policy().label(), load.rateRps(), load.source(),
                Text.plain(options.pointSeconds()), inputs instanceof RequestInputs w && w.workload().hasText() ? "fixed tokens, " : ""));
        PointSchedule schedule = PointSchedule.of(options, inputs, load.rateRps(), options.pointSeconds(),
                PointSchedule.seed(options.seed(), "ablation", (long) (load.rateRps() * 1000), 0));
        AblationResult result = new AblationRun(session, options.seqLen(), rowsPerRequest, engineSeed, inputs)
                .run(target, load.policy(), load.rateRps(), load.source(), options.pointSeconds(), schedule.arrivalsNs(),
                        schedule.mix());
        AblationTable.lines(result).forEach(console::println);
        return result;
    }

    SoakResult soak(BatchExecutor.Factory executors, GpuSampler gpu, SoakRun.Target target, SustainedLoad load)
            throws InterruptedException {
        int windows = ServeOptions.soakWindows(options.soakSeconds(), options.soakWindowSeconds());
        double seconds = windows * options.soakWindowSeconds();
        if (load.policy() == null) {
            console.println("[inferbench] soak not run: " + load.source());
            return SoakRun.notRun(target, options.soakWindowSeconds(), load.source());
        }
        List<String> notes = new ArrayList<>();
        if (seconds < SoakResult.SHORTEST_SECONDS_THE_FIELD_ASKS) {
            notes.add(Text.f("%s s is shorter than the %s s the field asks of a soak (5 minutes for a formal evaluation): "
                    + "these trends are short-term ones", Text.plain(seconds),
                    Text.plain(SoakResult.SHORTEST_SECONDS_THE_FIELD_ASKS)));
        }
        if (load.rateRps() * options.soakWindowSeconds() < ServeOptions.MIN_REQUESTS_PER_POINT) {
            notes.add(Text.f("a window holds about %.0f requests, fewer than %d: each window's p99 is near its maximum",
                    load.rateRps() * options.soakWindowSeconds(), ServeOptions.MIN_REQUESTS_PER_POINT));
        }
        console.println(Text.f("[inferbench] soak, %s, %s at %.1f requests/s (%s) for %s s in %d windows of %s s; ends "
                        + "about %s", target.backend() + "/" + target.device() + "/" + Text.shortModelName(target.model()),
                load.policy().label(), load.rateRps(), load.source(), Text.plain(seconds), windows,
                Text.plain(options.soakWindowSeconds()), java.time.LocalTime.now().plusSeconds((long) Math.ceil(seconds))
                        .withNano(0)));
        PointSchedule schedule = PointSchedule.of(options, inputs, load.rateRps(), seconds,
                PointSchedule.seed(options.seed(), "soak", (long) (load.rateRps() * 1000), (long) (seconds * 1000)));
        SoakResult result = new SoakRun(executors, MemorySampler.process(), gpu).run(target, load.policy(),
                load.rateRps(), load.source(), schedule.arrivalsNs(), schedule.mix(), windows, options.soakWindowSeconds(), notes);
        SoakTable.lines(result).forEach(console::println);
        return result;
    }
}
