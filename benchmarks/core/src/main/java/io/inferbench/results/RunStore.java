package io.inferbench.results;

import io.inferbench.BenchmarkException;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The folder of one run, {@code <results>/<run-id>/}, and atomic writes into it.
 *
 * <p>Every file is written to a temporary sibling and then moved over the target, so a reader (or a crash)
 * sees either the previous complete file or the new complete one, never a torn write. Run ids are
 * {@code yyyyMMdd-HHmmss-xxxx} in UTC, so they sort by time.
 */
public final class RunStore {
    public static final String RUN_FILE = "run.json";
    public static final String JMH_FILE = "jmh.json";
    /** JMH's own output and everything the forked JVMs printed, with every progress line: the full console of a run. */
    public static final String CONSOLE_LOG = "console.log";
    /** Links in the results folder to the newest run and the one before it, so documented commands need no run id. */
    public static final String LATEST = "latest";
    public static final String PREVIOUS = "previous";
    /**
     * The system property that names a file in which the run's folder is written as soon as it exists: the Maven build's
     * record of its runs ({@code io.inferbench.cli.BuildRecord}) finds its run there, even when the build is killed.
     */
    public static final String RUN_FOLDER_PROPERTY = "inferbench.runFolderFile";

    private final Path runDir;

    private RunStore(Path runDir) {
        this.runDir = runDir;
    }

    public static String newRunId(ZonedDateTime now) {
        byte[] suffix = new byte[2];
        new SecureRandom().nextBytes(suffix);
        return now.withZoneSameInstant(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT))
                + "-" + HexFormat.of().formatHex(suffix);
    }

    /**
     * Checks that {@code resultsDir} can take a run, by creating it and writing and deleting a probe file. Call
     * before anything long starts: a bad path must fail in a second, not after the sweep.
     */
    public static void checkWritable(Path resultsDir) {
        try {
            Files.createDirectories(resultsDir);
            Path probe = Files.createTempFile(resultsDir, ".write-probe", ".tmp");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw new BenchmarkException("The results folder " + resultsDir.toAbsolutePath() + " is not writable ("
                    + e + "). Make it writable, or choose another folder with -Dbench.results=/path", e);
        }
    }

    public static RunStore create(Path resultsDir, String runId) {
        checkWritable(resultsDir);
        Path runDir = resultsDir.resolve(runId);
        try {
            Files.createDirectory(runDir);
        } catch (IOException e) {
            throw new BenchmarkException("Could not create the run folder " + runDir + ": " + e
                    + ". Check -Dbench.results and free disk space", e);
        }
        announce(runDir);
        return new RunStore(runDir);
    }

    /**
     * Names the run's folder in the file {@value #RUN_FOLDER_PROPERTY} gives, if any. A failure to write it is said, not
     * thrown: the run goes on, and the build's gate then finds no run and fails.
     */
    private static void announce(Path runDir) {
        String target = System.getProperty(RUN_FOLDER_PROPERTY, "").trim();
        if (target.isEmpty()) {
            return;
        }
        try {
            writeAtomically(Path.of(target), out -> out.write(runDir.toAbsolutePath().toString()
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (RuntimeException e) {
            System.err.println("[inferbench] could not name this run's folder for the build's gate in " + target + ": " + e);
        }
    }

    /**
     * A folder of this run's for one of its subjects (an A/B run's baseline), with its own run file, forks and console
     * log, created now.
     */
    public RunStore subject(String folder) {
        Path dir = runDir.resolve(folder);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BenchmarkException("Could not create " + dir + ": " + e + ". Check free disk space", e);
        }
        return new RunStore(dir);
    }

    public Path runDir() {
        return runDir;
    }

    public Path runFile() {
        return runDir.resolve(RUN_FILE);
    }

    public Path consoleLog() {
        return runDir.resolve(CONSOLE_LOG);
    }

    /**
     * Points {@code results/latest} at this run and {@code results/previous} at the last run that can be its baseline,
     * each link replaced atomically: the run {@code latest} pointed to, unless that run is no baseline
     * ({@link #notABaseline}: it failed, or has not finished, as a run started beside this one), when {@code previous}
     * stays at the last run that is. A folder of the user's own called {@code latest} is left alone.
     */
    public String linkAsLatest() {
        return linkAsLatest(null);
    }

    /**
     * As {@link #linkAsLatest()}, and {@code previous} is a run that shares a cell with {@code subject} ({@link Subject#sharesCells}): a build
     * that measures two subjects in one go (the archetype's target and its model) leaves each its own baseline, so that
     * README's compare of {@code previous} and {@code latest} compares like with like. The newest earlier run of the
     * subject that can be a baseline is taken, among the {@value #SUBJECT_SEARCH} newest runs.
     *
     * @param subject this run's subject; null links as {@link #linkAsLatest()} does
     * @return what was linked, for the console, or why not (the run itself is unaffected either way)
     */
    public String linkAsLatest(Subject subject) {
        Path results = runDir.getParent();
        Path latest = results.resolve(LATEST);
        try {
            if (Files.exists(latest, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(latest)) {
                return results.relativize(latest) + " is not a link inferbench made, so it was left alone";
            }
            String kept = null;
            if (subject != null) {
                Path baseline = newestBaseline(results, subject);
                if (baseline != null) {
                    replaceLink(results.resolve(PREVIOUS), baseline.getFileName());
                } else {
                    kept = PREVIOUS + " left as it was: no earlier finished run of this subject (" + subject + ")";
                }
            } else if (Files.isSymbolicLink(latest)) {
                Path last = Files.readSymbolicLink(latest);
                String notBaseline = notABaseline(results.resolve(last));
                if (notBaseline == null) {
                    replaceLink(results.resolve(PREVIOUS), last);
                } else {
                    kept = results.relativize(results.resolve(PREVIOUS)) + " left as it was: " + last + " " + notBaseline;
                }
            }
            replaceLink(latest, runDir.getFileName());
            return "linked as " + latest + (kept == null ? "" : "; " + kept);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "could not link " + latest + ": " + e;
        }
    }

    /** How many of the newest runs {@link #linkAsLatest(Subject)} looks through for one of the same subject. */
    static final int SUBJECT_SEARCH = 50;

    /**
     * What a run measures, as {@code previous} matches it: its engines (or targets), models and devices, and its cell
     * kind (null for the forward pass); the same for a run's plan as for its run.json. Its text, for the console, is
     * {@code backends | models | devices[ | kind]}.
     */
    public record Subject(java.util.SortedSet<String> backends, java.util.SortedSet<String> models,
                          java.util.SortedSet<String> devices, String kind) {
        public Subject {
            backends = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(backends));
            models = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(models));
            devices = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(devices));
        }

        public static Subject of(RunConfig.Plan plan) {
            return new Subject(new java.util.TreeSet<>(plan.backends()), new java.util.TreeSet<>(plan.models().stream()
                    .map(RunConfig.ModelInfo::name).toList()), new java.util.TreeSet<>(plan.devices()), plan.cellKind());
        }

        /** As a stored run.json's {@code config} says it. */
        static Subject of(com.fasterxml.jackson.databind.JsonNode config) {
            java.util.SortedSet<String> backends = new java.util.TreeSet<>();
            java.util.SortedSet<String> models = new java.util.TreeSet<>();
            java.util.SortedSet<String> devices = new java.util.TreeSet<>();
            config.path("backends").forEach(b -> backends.add(b.asText()));
            config.path("models").forEach(m -> models.add(m.path("name").asText()));
            config.path("devices").forEach(d -> devices.add(d.asText()));
            return new Subject(backends, models, devices,
                    config.path("cellKind").isTextual() ? config.path("cellKind").asText() : null);
        }

        /**
         * Whether the two can have a cell in common: the same cell kind, and at least one engine (or target), one model
         * and one device in both. A run of one engine of the default sweep compares with the default run; the
         * archetype's target and its model never do.
         */
        public boolean sharesCells(Subject other) {
            return java.util.Objects.equals(kind, other.kind) && !java.util.Collections.disjoint(backends, other.backends)
                    && !java.util.Collections.disjoint(models, other.models)
                    && !java.util.Collections.disjoint(devices, other.devices);
        }

        @Override
        public String toString() {
            return String.join(",", backends) + " | " + String.join(",", models) + " | " + String.join(",", devices)
                    + (kind == null ? "" : " | " + kind);
        }
    }

    /** The newest run before this one in {@code results} that can be a baseline and shares a cell with {@code subject}; null when none. */
    private Path newestBaseline(Path results, Subject subject) throws IOException {
        List<Path> earlier;
        try (var dirs = Files.list(results)) {
            earlier = dirs.filter(d -> Files.isDirectory(d, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .filter(d -> d.getFileName().toString().compareTo(runDir.getFileName().toString()) < 0)
                    .sorted(java.util.Comparator.comparing((Path d) -> d.getFileName().toString()).reversed())
                    .limit(SUBJECT_SEARCH).toList();
        }
        for (Path dir : earlier) {
            if (notABaseline(dir) != null) {
                continue;
            }
            try {
                if (subject.sharesCells(Subject.of(Json.mapper().readTree(dir.resolve(RUN_FILE).toFile()).path("config")))) {
                    return dir;
                }
            } catch (IOException e) {
                // not a run to compare with
            }
        }
        return null;
    }

    /**
     * Why the run in {@code runDir} cannot be the next run's baseline ({@code results/previous}, which README's compare
     * command reads): it has no run file, it has not finished (still running beside this one, or killed), or a cell or
     * a stage of it failed. Null when it can.
     */
    static String notABaseline(Path runDir) {
        Path file = runDir.resolve(RUN_FILE);
        if (!Files.isRegularFile(file)) {
            return "has no " + RUN_FILE;
        }
        try {
            com.fasterxml.jackson.databind.JsonNode run = Json.mapper().readTree(file.toFile());
            if (run.path("finishedAt").isNull() || run.path("finishedAt").isMissingNode()) {
                return "has not finished (it is still running, or was stopped)";
            }
            for (com.fasterxml.jackson.databind.JsonNode cell : run.path("cells")) {
                if (!"ok".equals(cell.path("status").asText())) {
                    return "has failed cells";
                }
            }
            for (com.fasterxml.jackson.databind.JsonNode stage : run.path("stages")) {
                if (!StageResult.OK.equals(stage.path("status").asText(StageResult.OK))) {
                    return "has a stage that " + stage.path("status").asText() + " (" + stage.path("name").asText() + ")";
                }
            }
            return null;
        } catch (IOException e) {
            return "has a run file that cannot be read (" + e.getMessage() + ")";
        }
    }

    /**
     * Deletes {@code dir} and everything in it, if it is there; what cannot be deleted is left (a temporary folder left
     * behind is harmless), and nothing is thrown.
     */
    public static void deleteQuietly(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException e) {
            // left behind: harmless
        }
    }

    private static void replaceLink(Path link, Path target) throws IOException {
        Path temp = link.resolveSibling("." + link.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        Files.deleteIfExists(temp);
        Files.createSymbolicLink(temp, target);
        Files.move(temp, link, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Where the forks of cell {@code index} (0-based) write their raw measurements. */
    public Path forkDir(int index) {
        Path dir = runDir.resolve("forks").resolve(String.format(Locale.ROOT, "cell-%03d", index + 1));
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BenchmarkException("Could not create " + dir + ": " + e, e);
        }
    }

    /** Where the plan of the sweep's {@code jvm}-th fork JVM (1-based) is written; its JMH results go beside it. */
    public Path forkPlanFile(int jvm) {
        Path dir = runDir.resolve("forks").resolve("jvms");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BenchmarkException("Could not create " + dir + ": " + e, e);
        }
        return dir.resolve(String.format(Locale.ROOT, "jvm-%03d.json", jvm));
    }

    /**
     * Writes {@code jmh.json} beside {@code run.json}: every fork JVM's JMH results ({@code forks/jvms/*.jmh.json}), one
     * array, in the order the forks ran. JMH's score there is the wall time of a cell's whole measurement phase.
     */
    public void writeJmhResults() {
        Path dir = runDir.resolve("forks").resolve("jvms");
        com.fasterxml.jackson.databind.node.ArrayNode all = Json.mapper().createArrayNode();
        if (Files.isDirectory(dir)) {
            try (var files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".jmh.json")).sorted().toList()) {
                    var node = Json.mapper().readTree(file.toFile());
                    if (node != null && node.isArray()) {
                        all.addAll((com.fasterxml.jackson.databind.node.ArrayNode) node);
                    }
                }
            } catch (IOException e) {
                throw new BenchmarkException("Could not read the forks' JMH results in " + dir + ": " + e, e);
            }
        }
        writeAtomically(runDir.resolve(JMH_FILE), out -> Json.mapper().writeValue(out, all));
    }

    public void writeRun(RunResult run) {
        writeAtomically(runFile(), out -> Json.mapper().writeValue(out, run));
    }

    /**
     * Reads a {@code run.json}. Older schema versions are read as they are (see {@link RunResult} for what each
     * lacks); a newer one is refused, since its fields may mean something this version does not know.
     */
    public static RunResult readRun(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new BenchmarkException("Run file not found: " + file.toAbsolutePath()
                    + ". Give the path to a run.json written by inferbench (results/<run-id>/run.json)");
        }
        com.fasterxml.jackson.databind.JsonNode tree;
        try {
            tree = Json.mapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new BenchmarkException("Could not read run file " + file + ": " + e.getMessage() + ". " + WHAT_A_RUN_IS, e);
        }
        if (tree != null && tree.isObject() && tree.path("schemaVersion").canConvertToInt()
                && tree.path("schemaVersion").asInt() > RunResult.SCHEMA_VERSION) {
            throw new BenchmarkException(file + " has schemaVersion " + tree.path("schemaVersion").asInt() + "; this inferbench "
                    + "reads versions 1 to " + RunResult.SCHEMA_VERSION + ". Use the inferbench version that wrote it, or upgrade");
        }
        String notARun = notARun(tree);
        if (notARun != null) {
            throw new BenchmarkException(file.toAbsolutePath() + " is not a run.json written by inferbench: it holds " + notARun
                    + ". " + WHAT_A_RUN_IS);
        }
        RunResult run;
        try {
            run = Json.mapper().treeToValue(tree, RunResult.class);
        } catch (IOException | IllegalArgumentException e) {
            throw new BenchmarkException("Could not read run file " + file + ": " + e.getMessage() + ". " + WHAT_A_RUN_IS, e);
        }
        return run;
    }

    /** What a run file is, for every refusal of one that is not. */
    static final String WHAT_A_RUN_IS = "A run.json is the JSON object a run writes to results/<run-id>/run.json (`mvn verify`, "
            + "or the plugin's run goal), with its runId, schemaVersion, startedAt and cells; give the path of one, or of its folder";

    /** What {@code tree} holds instead of a run, in words; null when it has a run's shape. */
    static String notARun(com.fasterxml.jackson.databind.JsonNode tree) {
        if (tree == null || tree.isMissingNode()) {
            return "nothing (the file is empty)";
        }
        if (tree.isNull()) {
            return "null";
        }
        if (tree.isArray()) {
            return "an array of " + tree.size() + " element(s)";
        }
        if (!tree.isObject()) {
            return "a " + tree.getNodeType().name().toLowerCase(Locale.ROOT) + " (" + io.inferbench.Text.shorten(tree.toString(), 40) + ")";
        }
        List<String> missing = new java.util.ArrayList<>();
        for (String field : List.of("schemaVersion", "runId", "cells")) {
            if (!tree.hasNonNull(field)) {
                missing.add(field);
            }
        }
        if (!missing.isEmpty()) {
            return "a JSON object without " + String.join(", ", missing) + " (its fields: "
                    + io.inferbench.Text.shorten(String.join(", ", (Iterable<String>) tree::fieldNames), 120) + ")";
        }
        if (!tree.get("cells").isArray() || !tree.get("schemaVersion").canConvertToInt() || tree.get("schemaVersion").asInt() < 1) {
            return "an object whose cells is not an array, or whose schemaVersion is not a version (" + tree.get("schemaVersion") + ")";
        }
        return null;
    }

    /**
     * A file of the run could not be written (a full disk, a folder made read-only): not bad input, since it happens
     * after measuring began, and not a finding about the model. What was written before is whole (every write is
     * atomic) and kept; the run stops, and its exit code is 3.
     */
    public static final class WriteFailed extends RuntimeException {
        private final Path file;

        public WriteFailed(Path file, IOException cause) {
            super("Could not write " + file + " (" + cause + "): check the folder's permissions and free space; what the run "
                    + "wrote before is kept in " + file.getParent(), cause);
            this.file = file;
        }

        /** The file that could not be written. */
        public Path file() {
            return file;
        }
    }

    /** Something that writes a whole file's content to a stream. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Temp files are created owner-only; results are meant to be shared (CI artifacts, other users). */
    private static void makeWorldReadable(Path file) throws IOException {
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    public static void writeAtomically(Path target, Content content) {
        Path temp = null;
        try {
            temp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
            try (OutputStream out = Files.newOutputStream(temp)) {
                content.writeTo(out);
            }
            makeWorldReadable(temp);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new WriteFailed(target, e);
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException ignored) {
                    // the move succeeded or the original failure is already being thrown
                }
            }
        }
    }
}
