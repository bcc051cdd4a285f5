package io.inferbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.InProcessForkExecutor;
import io.inferbench.TestPaths;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * What the A/B run tests share: builds of a spinning target compiled into a test's folder, an A/B run's settings over
 * two of them, and the run itself, its fork JVMs in-process, with what it printed and wrote.
 */
final class AbRuns {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String TARGET = "ext.SpinTarget";
    /**
     * The machine as these tests' forks read it: no figure known, so no measurement is set aside or kept disturbed. They
     * test the A/B run's rules, which must not hang on how busy the machine running the tests is; the rules for disturbed
     * pairs are PairedAnalysisTest's, on pairs marked so.
     */
    static final io.inferbench.probe.CpuProbe QUIET = io.inferbench.probe.CpuProbe.NONE;

    record Ran(int code, String console, JsonNode run, JsonNode ab, Path runDir) {
    }

    /**
     * The spinning target compiled into {@code folder}, its call's forward stage spinning {@code forwardUs} per row, and
     * failing at batch {@code failBatch} (0: never). Each build sets the same system property when it opens, as many
     * services do (a library's setting): the same JVM-wide change by both builds leaves the {@code passes} mode as it is.
     */
    Path build(String folder, String forwardUs, String failBatch) throws IOException {
        return build(folder, forwardUs, failBatch, "on");
    }

    /** As above, the property set to {@code setting} when the build opens. */
    Path build(String folder, String forwardUs, String failBatch, String setting) throws IOException {
        String source = TargetSources.spinning(TARGET)
                .replace("context.property(\"forwardUs\", \"60\")", "context.property(\"forwardUs\", \"" + forwardUs + "\")")
                .replace("context.property(\"failBatch\", \"0\")", "context.property(\"failBatch\", \"" + failBatch + "\")")
                .replace("stages = context.stages();", "stages = context.stages();\n"
                        + "        System.setProperty(\"ext.SpinTarget.cache\", \"" + setting + "\");");
        return TargetSources.compile(dir.resolve(folder), Map.of(TARGET, source));
    }

    Properties ab(Path a, Path b) {
        Properties p = new Properties();
        p.setProperty("bench.target", TARGET);
        p.setProperty("bench.classpath", b.toString());
        p.setProperty("bench.ab.baseline", a.toString());
        p.setProperty("bench.ab.maxPairs", "12");
        p.setProperty("bench.seq", "16");
        p.setProperty("bench.batch", "1,2,4");
        p.setProperty("bench.warmup", "20");
        p.setProperty("bench.iterations", "100");
        p.setProperty("bench.threads", "1");
        p.setProperty("bench.results", dir.resolve("results").toString());
        p.setProperty("bench.cache", TestPaths.modelCache().toString());
        return p;
    }

    Ran run(Properties p) throws IOException {
        return run(p, new InProcessForkExecutor(null, QUIET));
    }

    Ran run(Properties p, ForkExecutor executor) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(sink, true, StandardCharsets.UTF_8);
        int code = InferbenchMain.run(new String[]{"sweep"}, p, out, out, options -> executor).code();
        Path results = Path.of(p.getProperty("bench.results"));
        Path runFile = null;
        if (Files.isDirectory(results)) {
            try (Stream<Path> files = Files.list(results)) {
                runFile = files.filter(f -> !Files.isSymbolicLink(f)).map(f -> f.resolve("run.json")).filter(Files::isRegularFile)
                        .findFirst().orElse(null);
            }
        }
        return new Ran(code, sink.toString(StandardCharsets.UTF_8), runFile == null ? null : JSON.readTree(runFile.toFile()),
                runFile == null || !Files.exists(runFile.resolveSibling("ab.json")) ? null
                        : JSON.readTree(runFile.resolveSibling("ab.json").toFile()),
                runFile == null ? null : runFile.getParent());
    }

    private final Path dir;

    AbRuns(Path dir) {
        this.dir = dir;
    }
}
