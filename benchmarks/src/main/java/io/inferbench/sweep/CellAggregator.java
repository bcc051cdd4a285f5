package io.inferbench.sweep;

import io.inferbench.measure.ColdStart;
import io.inferbench.measure.ForkMeasurement;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.results.CellFork;
import io.inferbench.results.CellResult;
import io.inferbench.results.CellStatus;
import io.inferbench.results.DepartedFork;
import io.inferbench.results.Json;
import io.inferbench.results.RunConfig;
import org.HdrHistogram.Histogram;
import org.apache.commons.math3.stat.descriptive.rank.Median;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads what a cell's forks left behind and merges it into one {@link CellResult}: its percentiles weigh every fork
 * equally ({@link LatencySummary#ofForks}), the histograms are added (exact for HdrHistogram) and also kept per fork, in
 * round order, with each fork's first pass, warm-up and stop
 * ({@link CellFork}). Cold starts are kept per fork with {@link Isolation#CELL} only, where the fork's JVM ran this cell
 * alone. A cell with fewer measurements than forks is {@code failed}, with the forks' own error messages; its raw files
 * stay in the fork folder.
 *
 * <p>A fork set aside ({@link ForkDeparture}) has its file renamed with {@value #DEPARTED} appended (or {@value #DOUBTED},
 * for a sibling of a departure a fresh JVM confirmed) while the cell is measured again; it is read back into
 * {@link CellResult#departedForks()}, in no percentile or histogram of the cell. If the fresh JVM measures nothing, the
 * set-aside file gets its name back and counts as before.
 */
public final class CellAggregator {
    /** Appended to a departed fork's measurement file while its cell is measured again. */
    public static final String DEPARTED = ".departed";
    /** Appended instead for a fork in doubt: a sibling of a departed fork whose fresh measurement agreed with it. */
    public static final String DOUBTED = ".doubted";
    /** Appended to a re-measurement's error file, so that a failed re-measurement does not fail the cell. */
    static final String REMEASURE_FAILED = ".remeasure-failed";

    private CellAggregator() {
    }

    /**
     * Sets aside the measurement of {@code round} in {@code forkDir}: as departed, or, with {@code doubted}, as a
     * sibling of a confirmed departure.
     */
    static void setAside(Path forkDir, int round, boolean doubted) {
        for (Path file : roundFiles(forkDir, round, ".json")) {
            move(file, file.resolveSibling(file.getFileName() + (doubted ? DOUBTED : DEPARTED)));
        }
    }

    /**
     * After a re-measurement of {@code round}: when it wrote no measurement, the departed file gets its name back and
     * the re-measurement's error, if any, is kept under another name. Returns whether the re-measurement counts.
     */
    static boolean settleRemeasurement(Path forkDir, int round) {
        if (!roundFiles(forkDir, round, ".json").isEmpty()) {
            return true;
        }
        for (Path error : roundFiles(forkDir, round, ".error")) {
            move(error, error.resolveSibling(error.getFileName() + REMEASURE_FAILED));
        }
        for (String suffix : List.of(DEPARTED, DOUBTED)) {
            for (Path setAside : roundFiles(forkDir, round, ".json" + suffix)) {
                String name = setAside.getFileName().toString();
                move(setAside, setAside.resolveSibling(name.substring(0, name.length() - suffix.length())));
            }
        }
        return false;
    }

    private static List<Path> roundFiles(Path forkDir, int round, String suffix) {
        try (Stream<Path> files = Files.list(forkDir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("fork-r" + round + "-")
                    && f.getFileName().toString().endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("could not list the fork folder " + forkDir, e);
        }
    }

    private static void move(Path from, Path to) {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("could not rename " + from + " to " + to.getFileName(), e);
        }
    }

    public static CellResult aggregate(Cell cell, RunConfig.ModelInfo model, int expectedForks, Path forkDir,
                                       Isolation isolation) {
        List<ForkMeasurement> forks = new ArrayList<>();
        List<ForkMeasurement> departed = new ArrayList<>();
        List<String> departedFiles = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        try (Stream<Path> files = Files.list(forkDir)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".json")) {
                    forks.add(Json.mapper().readValue(file.toFile(), ForkMeasurement.class));
                } else if (name.endsWith(".json" + DEPARTED) || name.endsWith(".json" + DOUBTED)) {
                    departed.add(Json.mapper().readValue(file.toFile(), ForkMeasurement.class));
                    departedFiles.add(name);
                } else if (name.endsWith(".error")) {
                    errors.add(Files.readString(file, StandardCharsets.UTF_8).lines().findFirst().orElse("(empty error file)"));
                }
            }
        } catch (IOException e) {
            return failed(cell, model, "could not read the forks' output in " + forkDir + ": " + e);
        }
        if (!errors.isEmpty() || forks.size() < expectedForks) {
            String why = errors.isEmpty()
                    ? forks.size() + " of " + expectedForks + " forks wrote a measurement; see the JMH output above"
                    : String.join("; ", errors);
            return failed(cell, model, why + " (raw fork output kept in " + forkDir + ")");
        }
        CellResult merged = merge(cell, model, forks, isolation);
        return departed.isEmpty() || !merged.measured() ? merged : withDeparted(merged, departed, departedFiles);
    }

    /** The cell with its departed forks recorded beside the forks it kept. */
    static CellResult withDeparted(CellResult cell, List<ForkMeasurement> departed, List<String> files) {
        double kept = new Median().evaluate(cell.forkHistogramsNs() == null
                ? new double[]{cell.latencyMs().p50Ms()}
                : cell.forkHistogramsNs().stream().mapToDouble(HistogramCodec::p50Ms).toArray());
        List<DepartedFork> out = new ArrayList<>();
        for (int i = 0; i < departed.size(); i++) {
            ForkMeasurement fork = departed.get(i);
            LatencySummary own = LatencySummary.of(HistogramCodec.decode(fork.measuredHistogramNs()));
            out.add(new DepartedFork(cellFork(fork), own.p50Ms(), own.p99Ms(), kept, fork.measuredHistogramNs(), files.get(i),
                    files.get(i).endsWith(DOUBTED) ? DepartedFork.DOUBTED : DepartedFork.DEPARTED));
        }
        return cell.withDepartedForks(out);
    }

    private static CellFork cellFork(ForkMeasurement fork) {
        return new CellFork(fork.round(), fork.pid(), fork.positionInJvm(), fork.firstPassMs(), fork.warmup(),
                fork.measurement(), fork.memory());
    }

    static CellResult merge(Cell cell, RunConfig.ModelInfo model, List<ForkMeasurement> unordered, Isolation isolation) {
        List<ForkMeasurement> forks = unordered.stream().sorted(Comparator.comparingInt(ForkMeasurement::round)).toList();
        Histogram measured = PassRecorder.newHistogram();
        Histogram warmup = PassRecorder.newHistogram();
        List<ColdStart> coldStarts = new ArrayList<>();
        List<String> forkHistograms = new ArrayList<>();
        List<Histogram> perFork = new ArrayList<>();
        List<CellFork> forkRuns = new ArrayList<>();
        for (ForkMeasurement fork : forks) {
            forkHistograms.add(fork.measuredHistogramNs());
            Histogram own = HistogramCodec.decode(fork.measuredHistogramNs());
            perFork.add(own);
            measured.add(own);
            warmup.add(HistogramCodec.decode(fork.warmupHistogramNs()));
            coldStarts.add(fork.coldStart());
            forkRuns.add(cellFork(fork));
        }
        if (measured.getTotalCount() == 0) {
            return failed(cell, model, "the forks recorded no measured passes");
        }
        LatencySummary latency = LatencySummary.ofForks(perFork);
        ForkMeasurement first = forks.get(0);
        double samplesPerSecond = cell.batch() * 1000.0 / latency.meanMs();
        return new CellResult(CellStatus.OK, null, cell.backend(), cell.device(), model.name(), model.sha256(),
                cell.seqLen(), cell.batch(), forks.size(), warmup.getTotalCount(), measured.getTotalCount(),
                latency, warmup.getTotalCount() > 0 ? LatencySummary.of(warmup) : null, samplesPerSecond,
                isolation == Isolation.CELL ? coldStarts : null,
                first.executionProvider(), first.intraOpThreads(), first.interOpThreads(), first.engineVersion(),
                first.engineFlavor(), first.deviceUsed(), first.outputHandling(),
                HistogramCodec.encode(measured), forks.size() > 1 ? List.copyOf(forkHistograms) : null, List.copyOf(forkRuns));
    }

    public static CellResult failed(Cell cell, RunConfig.ModelInfo model, String error) {
        return CellResult.failed(cell.series(), model.sha256(), cell.batch(), error);
    }
}
