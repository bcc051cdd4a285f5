package io.inferbench.generate;

import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.Device;
import io.inferbench.engine.Engines;
import io.inferbench.engine.SessionSpec;
import io.inferbench.inputs.InputOptions;
import io.inferbench.inputs.KvPair;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.JitClock;
import io.inferbench.measure.MeasureEnd;
import io.inferbench.measure.MemoryUse;
import io.inferbench.measure.NanoClock;
import io.inferbench.measure.StopRule;
import io.inferbench.measure.WarmupEnd;
import io.inferbench.measure.WarmupRule;
import io.inferbench.model.ModelSource;
import io.inferbench.results.Json;
import io.inferbench.results.RunStore;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A generation fork JVM: {@code GenerationForkMain JOB.json RESULT.json}. Opens one decoder, measures its cells in the
 * job's order (each until steady, then until precise, a generation the unit) and writes what it measured. Prints one
 * line per cell; exits 1, printing why, when anything fails.
 */
public final class GenerationForkMain {
    private GenerationForkMain() {
    }

    public static void main(String[] args) {
        try {
            GenerationJob job = Json.mapper().readValue(Path.of(args[0]).toFile(), GenerationJob.class);
            GenerationJob.Result result = run(job);
            RunStore.writeAtomically(Path.of(args[1]), out -> Json.mapper().writeValue(out, result));
            System.exit(0);
        } catch (Exception | LinkageError e) {
            System.out.println("[inferbench] generation fork failed: " + e);
            e.printStackTrace(System.out);
            System.exit(1);
        }
    }

    static GenerationJob.Result run(GenerationJob job) {
        ModelSource source = ModelSource.parse(job.model());
        SessionSpec spec = new SessionSpec(source, Path.of(job.modelFile()), job.seed(), Device.parse(job.device()),
                job.intraOpThreads(), job.interOpThreads(), job.allowCpuFallback(), new InputOptions(null, job.dims(), null));
        List<KvPair> pairs = KvPair.parse(String.join(",", job.kvPairs()));
        List<GenerationJob.CellResult> cells = new ArrayList<>();
        try (DecoderSession decoder = Engines.create(job.backend(), Path.of(job.nativeCacheDir())).openDecoder(spec, pairs)) {
            for (int[] cell : job.cells()) {
                cells.add(measure(decoder, job, cell[0], cell[1]));
            }
            long rss = (long) (MemoryUse.Probe.self().rssMb() * 1024 * 1024);
            return new GenerationJob.Result(decoder.provider(), rss, cells);
        }
    }

    /** One cell: warm-up generations until steady, then measured ones until the median of their time is precise. */
    static GenerationJob.CellResult measure(DecoderSession decoder, GenerationJob job, int seqLen, int batch) {
        NanoClock clock = NanoClock.SYSTEM;
        JitClock jit = JitClock.jvm();
        long[] prompt = GenerationRunner.prompt(job.seed(), seqLen, batch);
        WarmupRule warmup = new WarmupRule(job.warmup());
        long start = clock.nanoTime();
        WarmupEnd warmupEnd = warmup.end();
        int warmups = 0;
        while (warmupEnd == null) {
            Generation g = Generation.run(decoder, prompt, batch, seqLen, job.newTokens(), clock);
            warmups++;
            warmupEnd = warmup.afterPass(Math.max(1, g.totalNs()), clock.nanoTime() - start, jit.totalCompilationMs());
        }
        CellRecorder recorder = new CellRecorder();
        StopRule rule = new StopRule(job.stop());
        long measureStart = clock.nanoTime();
        MeasureEnd end = null;
        int generations = 0;
        while (end == null) {
            Generation g = Generation.run(decoder, prompt, batch, seqLen, job.newTokens(), clock);
            recorder.record(g);
            generations++;
            end = rule.afterPass(recorder.total, clock.nanoTime() - measureStart);
        }
        String stop = String.format(java.util.Locale.ROOT, "round %d: warm-up %d generations (%s), measured %d (%s)",
                job.round() + 1, warmups, warmupEnd.label(), generations, end.label());
        System.out.println(String.format(java.util.Locale.ROOT, "[inferbench] generate round %d %s %s %s prompt %d batch %d: "
                        + "TTFT p50 %.2f ms, step p50 %.2f ms; %s", job.round() + 1, job.backend(), job.device(), job.model(),
                seqLen, batch, recorder.ttft.getValueAtPercentile(50) / 1e6, recorder.step.getTotalCount() == 0 ? 0.0
                        : recorder.step.getValueAtPercentile(50) / 1e6, stop.substring(stop.indexOf(':') + 2)));
        return new GenerationJob.CellResult(seqLen, batch, warmups, stop, recorder.cacheBytes, recorder.firstTokens,
                HistogramCodec.encode(recorder.ttft), HistogramCodec.encode(recorder.prefill), HistogramCodec.encode(recorder.step),
                HistogramCodec.encode(recorder.handOff), HistogramCodec.encode(recorder.total),
                recorder.byPosition.stream().map(HistogramCodec::encode).toList());
    }
}
