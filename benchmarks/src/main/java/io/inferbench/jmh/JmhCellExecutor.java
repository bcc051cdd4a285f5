package io.inferbench.jmh;

import io.inferbench.results.RunStore;
import io.inferbench.sweep.Cell;
import io.inferbench.sweep.CellExecutor;
import io.inferbench.sweep.ForkSettings;
import io.inferbench.sweep.SweepOptions;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
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
 * before the next starts. JMH's own results accumulate into {@code jmh.json} beside {@code run.json}, rewritten
 * after every cell.
 *
 * <p><b>Console.</b> JMH's own output (banner, notices, its score: the time of the whole batch of passes, which is not
 * a per-pass figure) and everything the forked JVM prints go to the run's {@code console.log}, appended cell after
 * cell; with {@code -Dbench.verbose=true} they are also echoed to the console.
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
    public void execute(Cell cell, Path forkDir, Path runDir) throws RunnerException, IOException {
        List<String> jvmArgs = new ArrayList<>(ForkSettings.of(options, forkDir).asJvmArgs());
        if (!options.forkJvmArgs().isBlank()) {
            jvmArgs.addAll(Arrays.asList(options.forkJvmArgs().trim().split("\\s+")));
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
        // JMH closes its output format at the end of every run, so each cell gets a fresh stream appending to the log.
        // JMH copies the forked JVM's own stdout and stderr to this JVM's System.out and System.err, so those point at
        // the log too while the fork runs (the sweep's console lines go through their own stream, captured before).
        Path logFile = runDir.resolve(RunStore.CONSOLE_LOG);
        PrintStream console = System.out;
        PrintStream consoleErr = System.err;
        PrintStream forkOut = logStream(logFile, console);
        PrintStream forkErr = logStream(logFile, consoleErr);
        OutputFormat format = OutputFormatFactory.createFormatInstance(logStream(logFile, console), VerboseMode.NORMAL);
        System.setOut(forkOut);
        System.setErr(forkErr);
        try {
            jmhResults.addAll(new Runner(builder.build(), format).run());
        } finally {
            System.setOut(console);
            System.setErr(consoleErr);
            format.close();
            forkOut.close();
            forkErr.close();
        }
        RunStore.writeAtomically(runDir.resolve(RunStore.JMH_FILE), out -> {
            PrintStream print = new PrintStream(out, false, StandardCharsets.UTF_8);
            ResultFormatFactory.getInstance(ResultFormatType.JSON, print).writeOut(jmhResults);
            print.flush();
        });
    }

    /** A stream appending to the log, echoed to {@code console} with {@code -Dbench.verbose=true}. */
    private PrintStream logStream(Path logFile, PrintStream console) throws IOException {
        OutputStream log = new FileOutputStream(logFile.toFile(), true);
        return new PrintStream(options.verbose() ? new Tee(log, console) : log, true, StandardCharsets.UTF_8);
    }

    /** Writes to the log and echoes to the console; closing it closes the log, never the console. */
    private static final class Tee extends FilterOutputStream {
        private final PrintStream console;

        Tee(OutputStream log, PrintStream console) {
            super(log);
            this.console = console;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            console.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            console.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
            console.flush();
        }
    }
}
