package io.inferbench.runner;

import com.fasterxml.jackson.databind.JsonNode;
import io.inferbench.engine.SessionFacts;
import io.inferbench.measure.ColdStart;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads what a cell's forks left behind and merges it into one {@link CellResult}: its percentiles weigh every fork
 * equally ({@link LatencySummary#ofForks}), the histograms are added (exact for HdrHistogram) and also kept per fork, in
 * round order, with each fork's first pass, warm-up and stop
 * ({@link CellFork}). Cold starts are kept per fork with {@link Isolation#CELL} only, where the fork's JVM ran this cell
 * alone. A cell with fewer measurements than forks is {@code failed}, with the forks' own error messages; its raw files
 * stay in the fork folder.
 *
 * <p>A fork set aside ({@link ForkDeparture}) while its cell is measured again is named in the sweep's {@link ForkFiles}
 * and read into {@link CellResult#departedForks()}, in no percentile or histogram of the cell; so is the error of a
 * re-measurement that failed, which does not fail the cell.
 */
public final class CellAggregator {
    private CellAggregator() {
    }

    /** How the files of a round's forks begin: {@code fork-r<round>-} ({@link ForkPlan#fileName}). */
    static String roundPrefix(int round) {
        return "fork-r" + round + "-";
    }

    /** The measurements of {@code round} in {@code forkDir} that count: not set aside. */
    static List<String> measurements(Path forkDir, int round, ForkFiles files) {
        return roundFiles(forkDir, round, ".json").stream().filter(f -> !files.setAside().containsKey(f)).toList();
    }

    /** The error files of {@code round} in {@code forkDir} that count: not ignored. */
    static List<String> errors(Path forkDir, int round, ForkFiles files) {
        return roundFiles(forkDir, round, ".error").stream().filter(f -> !files.ignored().contains(f)).toList();
    }

    private static List<String> roundFiles(Path forkDir, int round, String suffix) {
        try (Stream<Path> files = Files.list(forkDir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.startsWith(roundPrefix(round)) && f.endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("could not list the fork folder " + forkDir, e);
        }
    }

    public static CellResult aggregate(Cell cell, RunConfig.ModelInfo model, int expectedForks, Path forkDir,
                                       Isolation isolation, ForkFiles setApart) {
        List<ForkMeasurement> forks = new ArrayList<>();
        List<ForkMeasurement> departed = new ArrayList<>();
        List<String> departedFiles = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        try (Stream<Path> files = Files.list(forkDir)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (setApart.ignored().contains(name)) {
                    continue;
                }
                if (setApart.setAside().containsKey(name)) {
                    departed.add(Json.mapper().readValue(file.toFile(), ForkMeasurement.class));
                    departedFiles.add(name);
                } else if (name.endsWith(".json")) {
                    forks.add(Json.mapper().readValue(file.toFile(), ForkMeasurement.class));
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
            String error = why + " (raw fork output kept in " + forkDir + ")";
            CellResult finished = forks.isEmpty() ? null : merge(cell, model, forks, isolation);
            return finished == null || !finished.measured() ? failed(cell, model, error)
                    : CellResult.failedKeeping(finished, error);
        }
        CellResult merged = merge(cell, model, forks, isolation);
        return departed.isEmpty() || !merged.measured() ? merged
                : withDeparted(merged, departed, departedFiles.stream().map(f -> setApart.setAside().get(f)).toList(), departedFiles);
    }

    /** The cell with its set-aside forks recorded beside the forks it kept, each with why it was set aside. */
    static CellResult withDeparted(CellResult cell, List<ForkMeasurement> departed, List<String> reasons, List<String> files) {
        double kept = new Median().evaluate(cell.forkHistogramsNs() == null
                ? new double[]{cell.latencyMs().p50Ms()}
                : cell.forkHistogramsNs().stream().mapToDouble(HistogramCodec::p50Ms).toArray());
        List<DepartedFork> out = new ArrayList<>();
        for (int i = 0; i < departed.size(); i++) {
            ForkMeasurement fork = departed.get(i);
            LatencySummary own = LatencySummary.of(HistogramCodec.decode(fork.histograms().measuredHistogramNs()));
            out.add(new DepartedFork(cellFork(fork), own.p50Ms(), own.p99Ms(), kept, fork.histograms().measuredHistogramNs(),
                    files.get(i), reasons.get(i)));
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
            forkHistograms.add(fork.histograms().measuredHistogramNs());
            Histogram own = HistogramCodec.decode(fork.histograms().measuredHistogramNs());
            perFork.add(own);
            measured.add(own);
            warmup.add(HistogramCodec.decode(fork.histograms().warmupHistogramNs()));
            coldStarts.add(fork.coldStart());
            forkRuns.add(cellFork(fork));
        }
        if (measured.getTotalCount() == 0) {
            return failed(cell, model, "the forks recorded no measured passes");
        }
        LatencySummary latency = LatencySummary.ofForks(perFork);
        ForkMeasurement first = forks.get(0);
        double samplesPerSecond = cell.batch() * 1000.0 / latency.meanMs();
        CellResult merged = new CellResult(CellStatus.OK, null,
                new CellResult.Identity(cell.backend(), cell.device(), model.name(), model.sha256(), cell.seqLen(),
                        cell.batch()),
                new CellResult.Counts(forks.size(), warmup.getTotalCount(), measured.getTotalCount()),
                new CellResult.Latency(latency, warmup.getTotalCount() > 0 ? LatencySummary.of(warmup) : null,
                        samplesPerSecond),
                isolation == Isolation.CELL ? coldStarts : null,
                session(first.facts()),
                new CellResult.Histograms(HistogramCodec.encode(measured),
                        forks.size() > 1 ? List.copyOf(forkHistograms) : null),
                CellResult.ForkRecords.of(List.copyOf(forkRuns)));
        return first.phases().phaseHistogramsNs() == null ? merged
                : merged.withPhases(phases(forks, perFork, latency.meanMs()));
    }

    /**
     * Each phase's histograms of the forks added (exact for HdrHistogram), each one's time per unit and share of the
     * unit's mean, the rest of the unit outside every phase, and each fork's unit output, in round order. A phase's time
     * per unit is the mean over the forks of its time per unit in each, every fork weighing the same, as in the unit's
     * own mean ({@link LatencySummary#ofForks}), so the rows add up to the cell's mean.
     *
     * @param units      each kept fork's measured units, in the order of {@code forks}
     * @param unitMeanMs the cell's mean unit, every fork weighing the same
     */
    static CellResult.UnitPhases phases(List<ForkMeasurement> forks, List<Histogram> units, double unitMeanMs) {
        Map<String, Histogram> merged = new LinkedHashMap<>();
        Map<String, List<String>> perFork = new LinkedHashMap<>();
        Map<String, Double> perUnitMs = new LinkedHashMap<>();
        List<JsonNode> outputs = new ArrayList<>();
        Double markCostNs = null;
        for (int i = 0; i < forks.size(); i++) {
            ForkMeasurement fork = forks.get(i);
            long forkUnits = units.get(i).getTotalCount();
            if (fork.phases().phaseHistogramsNs() != null) {
                fork.phases().phaseHistogramsNs().forEach((phase, encoded) -> {
                    perFork.computeIfAbsent(phase, p -> new ArrayList<>()).add(encoded);
                    Histogram h = HistogramCodec.decode(encoded);
                    merged.computeIfAbsent(phase, p -> PassRecorder.newHistogram()).add(h);
                    double forkMs = forkUnits == 0 ? 0 : h.getMean() * h.getTotalCount() / forkUnits / 1e6;
                    perUnitMs.merge(phase, forkMs / forks.size(), Double::sum);
                });
            }
            if (fork.phases().output() != null) {
                outputs.add(fork.phases().output());
            }
            Double markCost = fork.phases().phaseMarkCostNs();
            if (markCost != null) {
                markCostNs = markCostNs == null ? markCost : Math.max(markCostNs, markCost);
            }
        }
        Map<String, String> encoded = new LinkedHashMap<>();
        merged.forEach((phase, h) -> encoded.put(phase, HistogramCodec.encode(h)));
        List<CellResult.StageShare> stages = null;
        if (markCostNs != null) {
            // Stages marked inside the unit: each one's share, and the rest, so the rows add up to the unit.
            stages = new ArrayList<>();
            double staged = 0;
            for (Map.Entry<String, Histogram> e : merged.entrySet()) {
                Histogram h = e.getValue();
                double ms = perUnitMs.getOrDefault(e.getKey(), 0.0);
                staged += ms;
                stages.add(new CellResult.StageShare(e.getKey(), h.getTotalCount() == 0 ? null : LatencySummary.of(h), ms,
                        100 * ms / unitMeanMs));
            }
            double outside = unitMeanMs - staged;
            stages.add(new CellResult.StageShare(CellResult.UnitPhases.OUTSIDE, null, outside, 100 * outside / unitMeanMs));
        }
        // Each fork's own, only where every kept fork recorded the phase: the lists then line up with the forks.
        Map<String, List<String>> forkHistograms = new LinkedHashMap<>();
        perFork.forEach((phase, list) -> {
            if (forks.size() > 1 && list.size() == forks.size()) {
                forkHistograms.put(phase, List.copyOf(list));
            }
        });
        return new CellResult.UnitPhases(encoded, stages, markCostNs, outputs, forkHistograms.isEmpty() ? null : forkHistograms);
    }

    public static CellResult failed(Cell cell, RunConfig.ModelInfo model, String error) {
        return CellResult.failed(cell.series(), model.sha256(), cell.batch(), error);
    }

    /** How the session ran, as a cell records it. */
    private static CellResult.Session session(SessionFacts facts) {
        return new CellResult.Session(facts.executionProvider(), facts.intraOpThreads(), facts.interOpThreads(),
                facts.engineVersion(), facts.engineFlavor(), facts.deviceUsed(), facts.outputHandling());
    }
}
