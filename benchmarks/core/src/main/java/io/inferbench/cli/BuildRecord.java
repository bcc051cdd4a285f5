package io.inferbench.cli;

import io.inferbench.BenchmarkException;
import io.inferbench.results.Json;
import io.inferbench.results.RunStore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Which runs this Maven build made, so that {@code gate} checks every one of them and nothing older: a build whose run
 * was refused before measuring, or that skipped it, must not pass on a run an earlier build left in
 * {@code results/latest}; and a build that runs two subjects (the archetype's target and its model) must have both
 * checked. Kept in {@value #FILE} under the folder Maven was started in, and started anew by each build: a build is
 * one Maven JVM, named by its process id and start time, and every run goal or {@code launch-sweep} of that JVM adds
 * its run. The sweep JVM names its run's folder in a file of its own ({@value #RUN_FOLDER_PROPERTY}) as soon as the
 * folder exists, so a build killed mid-run still leads the gate to what it measured.
 */
public final class BuildRecord {
    /** Where the record is kept, relative to the folder Maven was started in. */
    public static final String FILE = "target/inferbench-build.json";
    /** The system property that tells a sweep JVM where to name its run's folder ({@link RunStore#create}). */
    public static final String RUN_FOLDER_PROPERTY = RunStore.RUN_FOLDER_PROPERTY;

    private BuildRecord() {
    }

    /**
     * One run of the build.
     *
     * @param module        the Maven module whose goal started it (its artifactId), or {@code launch-sweep}
     * @param runFolderFile where its sweep JVM names the run's folder once it exists
     * @param runFolder     the run's folder, once known; null when the run was refused or skipped before it had one
     * @param exitCode      inferbench's exit code for it; null while it runs, or when the build was killed
     * @param note          what happened when no run was made: skipped, or refused and why
     */
    public record Entry(String module, String startedAt, String runFolderFile, String runFolder, Integer exitCode,
                        String note) {
        /** The run's folder: as recorded, else as its sweep JVM named it; null when it made none. */
        public Path folder() {
            if (runFolder != null) {
                return Path.of(runFolder);
            }
            if (runFolderFile != null && Files.isRegularFile(Path.of(runFolderFile))) {
                try {
                    String named = Files.readString(Path.of(runFolderFile), StandardCharsets.UTF_8).strip();
                    return named.isEmpty() ? null : Path.of(named);
                } catch (IOException e) {
                    return null;
                }
            }
            return null;
        }
    }

    /**
     * The record.
     *
     * @param build which Maven JVM made it: {@code pid@start}
     */
    public record Record(String build, String startedAt, List<Entry> runs) {
        public Record {
            runs = List.copyOf(runs);
        }
    }

    /** The record's file under {@code root}. */
    public static Path file(Path root) {
        return root.toAbsolutePath().normalize().resolve(FILE);
    }

    /** This JVM as a build: its process id and start time, which no other Maven invocation shares. */
    static String thisBuild() {
        ProcessHandle self = ProcessHandle.current();
        return self.pid() + "@" + self.info().startInstant().map(Instant::toString).orElse("?");
    }

    /** The record under {@code root}; null when there is none (no build of this folder ran a benchmark through Maven). */
    public static Record read(Path root) {
        Path file = file(root);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return Json.mapper().readValue(file.toFile(), Record.class);
        } catch (IOException e) {
            throw new BenchmarkException("The build record " + file + " cannot be read (" + e.getMessage() + "): delete it "
                    + "and run the build again, or point -Dgate.run at the run to check", e);
        }
    }

    /**
     * Adds a run to this build's record (a new record when the file holds another build's) and returns its index.
     *
     * @param module what started it, for the gate's lines
     */
    public static int begin(Path root, String module) {
        Record record = current(root);
        List<Entry> runs = new ArrayList<>(record.runs());
        Path named = file(root).resolveSibling("inferbench-build").resolve("run-" + (runs.size() + 1) + ".txt");
        try {
            Files.createDirectories(named.getParent());
            Files.deleteIfExists(named);
        } catch (IOException e) {
            throw new BenchmarkException("Could not prepare " + named.getParent() + " (" + e + "): make the project's "
                    + "target folder writable", e);
        }
        runs.add(new Entry(module, Instant.now().toString(), named.toString(), null, null, null));
        write(root, new Record(record.build(), record.startedAt(), runs));
        return runs.size() - 1;
    }

    /** Records how run {@code index} of this build ended. */
    public static void end(Path root, int index, ExitCode exit, String note) {
        Record record = current(root);
        if (index >= record.runs().size()) {
            return; // another build replaced the record meanwhile: its own runs are what its gate checks
        }
        List<Entry> runs = new ArrayList<>(record.runs());
        Entry e = runs.get(index);
        Path folder = e.folder();
        runs.set(index, new Entry(e.module(), e.startedAt(), e.runFolderFile(), folder == null ? null : folder.toString(),
                exit.code(), note));
        write(root, new Record(record.build(), record.startedAt(), runs));
    }

    /** Records a run goal of this build that made no run: skipped, or refused before it started. */
    public static void noRun(Path root, String module, ExitCode exit, String note) {
        Record record = current(root);
        List<Entry> runs = new ArrayList<>(record.runs());
        runs.add(new Entry(module, Instant.now().toString(), null, null, exit.code(), note));
        write(root, new Record(record.build(), record.startedAt(), runs));
    }

    private static Record current(Path root) {
        Record record = null;
        try {
            record = read(root);
        } catch (BenchmarkException unreadable) {
            // replaced below
        }
        return record != null && record.build().equals(thisBuild()) ? record
                : new Record(thisBuild(), Instant.now().toString(), List.of());
    }

    private static void write(Path root, Record record) {
        Path file = file(root);
        try {
            Files.createDirectories(file.getParent());
        } catch (IOException e) {
            throw new BenchmarkException("Could not create " + file.getParent() + " for the build record (" + e + ")", e);
        }
        RunStore.writeAtomically(file, out -> Json.mapper().writeValue(out, record));
    }
}
