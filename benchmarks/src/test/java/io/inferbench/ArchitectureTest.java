package io.inferbench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packages' layers as {@code docs/architecture.md} draws them: every package of the harness may use only the packages
 * below it, so that nothing points back up (a renderer never runs a sweep, an engine never reads a run file, the sweep
 * never knows the stages after it). Imports and fully qualified names in code count; references in comments do not.
 */
class ArchitectureTest {
    /** Every module's main sources (tests run in {@code benchmarks/}, where the modules live). */
    static final List<Path> MAIN = Stream.of("api", "core", "engine-onnxruntime", "engine-djl", "maven-plugin")
            .map(module -> Path.of(module, "src", "main", "java", "io", "inferbench")).toList();

    /** Each package and the packages it may use. The top-level classes (BenchmarkException, Text) are everyone's. */
    private static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            Map.entry("cli", Set.of("generate", "inputs", "pipeline", "sweep", "runner", "jmh", "serve", "serve.generation", "workload", "precision",
                    "roofline", "resources", "compare", "shard", "report", "results", "environment", "engine", "model", "measure", "probe",
                    "analysis", "api", "option")),
            Map.entry("maven", Set.of("cli")),
            Map.entry("pipeline", Set.of("generate", "inputs", "sweep", "runner", "serve", "serve.generation", "workload", "precision", "roofline",
                    "resources", "compare", "shard", "report", "results", "environment", "engine", "model", "measure", "probe", "analysis")),
            Map.entry("jmh", Set.of("runner", "measure", "probe")),
            Map.entry("generate", Set.of("runner", "inputs", "engine", "model", "measure", "probe", "results", "report", "roofline", "analysis")),
            Map.entry("sweep", Set.of("runner", "inputs", "engine", "model", "measure", "probe", "results", "report", "precision", "roofline",
                    "workload", "analysis")),
            Map.entry("shard", Set.of("runner", "compare", "roofline", "resources", "results", "analysis", "measure", "probe")),
            Map.entry("runner", Set.of("inputs", "engine", "model", "measure", "probe", "results", "report", "analysis")),
            Map.entry("serve", Set.of("inputs", "engine", "workload", "results", "report", "model", "measure", "probe", "analysis",
                    "option")),
            Map.entry("serve.generation", Set.of("serve", "inputs", "engine", "results", "report", "model", "measure", "probe",
                    "analysis")),
            Map.entry("workload", Set.of("inputs", "engine", "results", "model", "measure", "probe", "analysis", "option")),
            Map.entry("precision", Set.of("inputs", "engine", "roofline", "results", "model", "measure", "probe", "analysis", "option")),
            Map.entry("roofline", Set.of("inputs", "engine", "analysis", "results", "model", "measure", "probe")),
            Map.entry("resources", Set.of("results", "measure", "probe", "analysis")),
            Map.entry("compare", Set.of("results", "analysis", "report", "measure", "probe", "option")),
            Map.entry("report", Set.of("results", "analysis", "measure", "probe")),
            Map.entry("environment", Set.of("results")),
            Map.entry("results", Set.of("analysis", "measure", "probe")),
            Map.entry("engine", Set.of("inputs", "model", "measure", "probe", "option")),
            Map.entry("engine.onnxruntime", Set.of("engine", "inputs", "model", "measure", "probe")),
            Map.entry("engine.djl", Set.of("engine", "inputs", "model", "measure", "probe")),
            Map.entry("engine.targets", Set.of("engine", "inputs", "model", "measure", "probe", "api")),
            Map.entry("api", Set.of()),
            Map.entry("inputs", Set.of("model")),
            Map.entry("model", Set.of()),
            Map.entry("measure", Set.of("probe")),
            Map.entry("probe", Set.of()),
            Map.entry("analysis", Set.of("option")),
            Map.entry("option", Set.of()));

    private static final Pattern USE = Pattern.compile("\\bio\\.inferbench\\.([a-z]+(?:\\.[a-z]+)*)\\.[A-Z]");
    /** An engine's own API: only that engine's package under {@code engine/} may use it. */
    private static final Pattern ENGINE_API = Pattern.compile("\\b(ai\\.onnxruntime|ai\\.djl)\\.");
    private static final Pattern COMMENTS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    @Test
    void noPackageUsesOneDrawnAboveIt() throws IOException {
        List<String> upward = new ArrayList<>();
        Set<String> packages = new TreeSet<>();
        for (Path root : MAIN) {
            for (Path file : javaFiles(root)) {
                Path relative = root.relativize(file);
                if (relative.getNameCount() < 2) {
                    continue;
                }
                String from = relative.getParent().toString().replace('/', '.');
                packages.add(from);
                Set<String> allowed = MAY_USE.get(from);
                String code = COMMENTS.matcher(Files.readString(file)).replaceAll("");
                Matcher api = ENGINE_API.matcher(code);
                while (api.find()) {
                    if (!from.equals("engine." + api.group(1).substring("ai.".length()))) {
                        upward.add(relative + " uses " + api.group(1) + ", an engine's own API, outside its package under engine/");
                    }
                }
                Matcher use = USE.matcher(code);
                while (use.find()) {
                    String to = use.group(1);
                    if (!to.equals(from) && (allowed == null || !allowed.contains(to))) {
                        upward.add(relative + " uses " + to);
                    }
                }
            }
        }
        assertEquals(List.of(), upward.stream().distinct().sorted().toList(), "uses against the layers");
        assertEquals(new TreeSet<>(MAY_USE.keySet()), packages, "every package has its place in the drawing");
    }

    /**
     * Issue 67: the command line is entry points and the reading of settings, each file one job a newcomer can read
     * whole; past 300 lines a file there holds two jobs.
     */
    @Test
    void noFileOfTheCommandLineIsOverThreeHundredLines() throws IOException {
        List<String> long_ = new ArrayList<>();
        for (Path file : javaFiles(Path.of("core", "src", "main", "java", "io", "inferbench", "cli"))) {
            long lines = Files.readAllLines(file).size();
            if (lines > 300) {
                long_.add(file.getFileName() + " " + lines);
            }
        }
        assertEquals(List.of(), long_, "cli/ files over 300 lines");
    }

    /** Issue 67's aim for a record of the core or an engine: a reader holds its components in mind at once. */
    static final int MAX_RECORD_COMPONENTS = 14;

    private static final Pattern RECORD = Pattern.compile("\\brecord\\s+(\\w+)\\s*(<[^>]*>)?\\s*\\(");

    /**
     * Issue 67: no record of the core or the engines over {@value #MAX_RECORD_COMPONENTS} components. A record that
     * grows past it is grouped by concern, its groups written flat ({@code @JsonUnwrapped}) so run.json keeps its keys.
     */
    @Test
    void noRecordIsOverFourteenComponents() throws IOException {
        Map<String, Integer> over = new java.util.TreeMap<>();
        for (Path root : MAIN.subList(0, 4)) {
            for (Path file : javaFiles(root)) {
                String source = Files.readString(file);
                String outer = file.getFileName().toString().replace(".java", "");
                Matcher m = RECORD.matcher(source);
                while (m.find()) {
                    int components = components(source, m.end());
                    if (components > MAX_RECORD_COMPONENTS) {
                        over.put(m.group(1).equals(outer) ? outer : outer + "." + m.group(1), components);
                    }
                }
            }
        }
        assertEquals(Map.of(), over, "records over " + MAX_RECORD_COMPONENTS + " components (group one by concern, as "
                + "CellResult and LoadPointResult are)");
    }

    /**
     * The components of the record header whose parenthesis opened just before {@code from}: its top-level commas,
     * outside comments (a shape in a comment, {@code // [h, f], [f]}, is no component).
     */
    static int components(String source, int from) {
        int depth = 1;
        int commas = 0;
        boolean any = false;
        for (int i = from; depth > 0; i++) {
            char c = source.charAt(i);
            if (source.startsWith("//", i)) {
                i = source.indexOf('\n', i);
            } else if (source.startsWith("/*", i)) {
                i = source.indexOf("*/", i) + 1;
            } else if (c == '(' || c == '<' || c == '{') {
                depth++;
            } else if (c == ')' || c == '>' || c == '}') {
                depth--;
            } else if (c == ',' && depth == 1) {
                commas++;
            } else if (!Character.isWhitespace(c)) {
                any = true;
            }
        }
        return any ? commas + 1 : 0;
    }

    /**
     * Javadoc blocks over 15 lines in the main sources, at most: issue 67 found 80, and a block's reasoning and
     * measurements belong in docs/ (docs/findings.md), with what a reader needs at the code left there. The number only
     * falls: lower it when a block is cut.
     */
    static final int LONG_JAVADOC_AT_MOST = 63;

    @Test
    void longJavadocBlocksDoNotGrow() throws IOException {
        List<String> longBlocks = new ArrayList<>();
        for (Path root : MAIN) {
            for (Path file : javaFiles(root)) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).strip().startsWith("/**")) {
                        int end = i;
                        while (!lines.get(end).contains("*/")) {
                            end++;
                        }
                        if (end - i + 1 > 15) {
                            longBlocks.add(file.getFileName() + ":" + (i + 1) + " " + (end - i + 1));
                        }
                        i = end;
                    }
                }
            }
        }
        assertTrue(longBlocks.size() <= LONG_JAVADOC_AT_MOST, longBlocks.size() + " Javadoc blocks over 15 lines, more "
                + "than " + LONG_JAVADOC_AT_MOST + ": say what a reader needs at the code, and put the reasoning in docs/ "
                + longBlocks);
    }

    /**
     * Constructor calls that pass more than 3 null literals among other values: none (issue 67), since a positional
     * {@code null} hides what is absent. What is absent together is a group with its {@code NONE}; a record's empty
     * value (every argument null, zero, false or empty) is exempt, spelled once as that {@code NONE}.
     */
    static final int NULL_HEAVY_CALLS_AT_MOST = 0;

    /** The literals of an empty value. */
    private static final Set<String> EMPTY = Set.of("null", "0", "0L", "0.0", "false", "List.of()", "Map.of()", "Set.of()");

    private static final Pattern CALL = Pattern.compile("\\b(?:new\\s+[\\w.]+(?:<[^>]*>)?|this|super)\\s*\\(");

    @Test
    void constructorCallsWithManyNullsDoNotGrow() throws IOException {
        List<String> heavy = new ArrayList<>();
        for (Path root : MAIN.subList(0, 4)) {
            for (Path file : javaFiles(root)) {
                String source = Files.readString(file);
                Matcher m = CALL.matcher(source);
                while (m.find()) {
                    List<String> args = arguments(source, m.end());
                    long nulls = args.stream().filter("null"::equals).count();
                    if (nulls > 3 && !args.stream().allMatch(EMPTY::contains)) {
                        heavy.add(file.getFileName() + ":" + (source.substring(0, m.start()).split("\n", -1).length)
                                + " " + nulls);
                    }
                }
            }
        }
        assertTrue(heavy.size() <= NULL_HEAVY_CALLS_AT_MOST, heavy.size() + " constructor calls pass more than 3 null "
                + "literals among other values, more than " + NULL_HEAVY_CALLS_AT_MOST + ": group what is absent together "
                + "(a record's NONE) " + heavy);
    }

    /** The top-level arguments of the call whose parenthesis opened just before {@code from}, each stripped. */
    static List<String> arguments(String source, int from) {
        List<String> args = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int depth = 1;
        for (int i = from; i < source.length() && depth > 0; i++) {
            char c = source.charAt(i);
            if (c == '(' || c == '{' || c == '[') {
                depth++;
            } else if (c == ')' || c == '}' || c == ']') {
                depth--;
            }
            if (depth == 1 && c == ',') {
                args.add(current.toString().strip());
                current.setLength(0);
            } else if (depth >= 1) {
                current.append(c);
            }
        }
        args.add(current.toString().strip());
        return args;
    }

    static List<Path> javaFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
    }
}
