package io.inferbench.jmh;

import io.inferbench.report.RunStore;
import io.inferbench.sweep.Cell;
import io.inferbench.sweep.CellExecutor;
import io.inferbench.sweep.ForkSettings;
import io.inferbench.sweep.SweepOptions;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Runs one fork of one cell as one JMH run of {@link EncoderForwardBenchmark}, with that cell's values as the
 * only {@code @Param} values, in one fresh JVM. The sweep calls it once per cell per round, so that a cell's forks
 * are interleaved with the other cells' (see {@link io.inferbench.sweep.SweepRunner}) and each is persisted
 * before the next starts. JMH's own results accumulate into
 * {@code jmh.json} beside {@code run.json}, rewritten after every cell.
 *
 * <p>Forks inherit the host JVM's arguments (JMH's default), then get the sweep's settings and
 * {@code -Dbench.jvmArgs} appended.
 */
public final class JmhCellExecutor implements CellExecutor {
    private final SweepOptions options;
    private final List<RunResult> jmhResults = new ArrayList<>();

    public JmhCellExecutor(SweepOptions options) {
        this.options = options;
    }

    @Override
    public void execute(Cell cell, Path forkDir, Path runDir) throws RunnerException {
        ForkSettings settings = new ForkSettings(options.cacheDir(), options.seed(), options.intraOpThreads(),
                options.interOpThreads(), options.allowCpuFallback(), forkDir);
        List<String> jvmArgs = new ArrayList<>(settings.asJvmArgs());
        if (!options.forkJvmArgs().isBlank()) {
            jvmArgs.addAll(Arrays.asList(options.forkJvmArgs().split("\\s+")));
        }
        ChainedOptionsBuilder builder = new OptionsBuilder()
                .include(Pattern.quote(EncoderForwardBenchmark.class.getName()) + "\\.forwardPass$")
                .param("backend", cell.backend())
                .param("device", cell.device())
                .param("model", cell.model())
                .param("seqLen", Integer.toString(cell.seqLen()))
                .param("batch", Integer.toString(cell.batch()))
                .measurementIterations(1)
                .measurementBatchSize(options.measuredPasses())
                .forks(1)
                .timeUnit(TimeUnit.MILLISECONDS)
                .jvmArgsAppend(jvmArgs.toArray(String[]::new))
                .shouldFailOnError(false);
        if (options.warmupPasses() > 0) {
            builder.warmupIterations(1).warmupBatchSize(options.warmupPasses());
        } else {
            builder.warmupIterations(0);
        }
        jmhResults.addAll(new Runner(builder.build()).run());
        RunStore.writeAtomically(runDir.resolve(RunStore.JMH_FILE), out -> {
            PrintStream print = new PrintStream(out, false, StandardCharsets.UTF_8);
            ResultFormatFactory.getInstance(ResultFormatType.JSON, print).writeOut(jmhResults);
            print.flush();
        });
    }
}
