package io.inferbench.cli;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Users' targets for tests, compiled outside the repository's build as a user's project would be: their sources written
 * under a folder of the test's and compiled with {@code javac} against the harness's classes, into {@code classes/}
 * beside them, the folder a run then names in {@code -Dbench.classpath}.
 */
final class TargetSources {
    private TargetSources() {
    }

    /** Compiles {@code sources} (class name to source) and returns the folder of the compiled classes. */
    static Path compile(Path dir, Map<String, String> sources) throws IOException {
        Path src = dir.resolve("src");
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes);
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                "--release", "17"));
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int code = javac.run(null, errors, errors, args.toArray(String[]::new));
        if (code != 0) {
            throw new IllegalStateException("the test's target did not compile:\n" + errors.toString(StandardCharsets.UTF_8));
        }
        return classes;
    }

    /**
     * A target whose call spins {@code tokenizeUs}, {@code forwardUs} and {@code serializeUs} microseconds per row of
     * the batch in three stages of those names, and {@code outsideUs} per call outside any stage; its settings are
     * {@code -Dbench.target.NAME}. Its call fails from its {@code failAfter}-th call at batch {@code failBatch}.
     */
    static String spinning(String className) {
        int dot = className.lastIndexOf('.');
        return """
                package %s;

                import io.inferbench.api.*;

                public class %s implements InferenceTarget {
                    private Stages stages;
                    private long tokenizeNs, forwardNs, serializeNs, outsideNs;
                    private int failBatch, failAfter, calls;

                    @Override
                    public void open(TargetContext context) {
                        stages = context.stages();
                        tokenizeNs = 1000L * Long.parseLong(context.property("tokenizeUs", "30"));
                        forwardNs = 1000L * Long.parseLong(context.property("forwardUs", "60"));
                        serializeNs = 1000L * Long.parseLong(context.property("serializeUs", "20"));
                        outsideNs = 1000L * Long.parseLong(context.property("outsideUs", "40"));
                        failBatch = Integer.parseInt(context.property("failBatch", "0"));
                        failAfter = Integer.parseInt(context.property("failAfter", "0"));
                    }

                    @Override
                    public Call prepare(Shape shape) {
                        int rows = shape.batch();
                        return () -> {
                            if (shape.batch() == failBatch && ++calls > failAfter) {
                                throw new IllegalStateException("the model server went away at batch " + rows);
                            }
                            long sum = spin(outsideNs);
                            try (Stage s = stages.begin("tokenize")) {
                                sum += spin(tokenizeNs * rows);
                            }
                            try (Stage s = stages.begin("forward")) {
                                sum += spin(forwardNs * rows);
                            }
                            try (Stage s = stages.begin("serialize")) {
                                sum += spin(serializeNs * rows);
                            }
                            return "{\\"rows\\":" + rows + ",\\"sum\\":" + sum + "}";
                        };
                    }

                    private static long spin(long ns) {
                        long start = System.nanoTime();
                        long n = 0;
                        while (System.nanoTime() - start < ns) {
                            n++;
                        }
                        return n;
                    }
                }
                """.formatted(className.substring(0, dot), className.substring(dot + 1));
    }
}
