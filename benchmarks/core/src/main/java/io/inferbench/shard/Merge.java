package io.inferbench.shard;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.compare.SameRuler;
import io.inferbench.resources.Resources;
import io.inferbench.results.CellProfile;
import io.inferbench.results.CellResult;
import io.inferbench.results.ForkJvm;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunAnalysis;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.roofline.ProfileRunner;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Joins the shards of one plan ({@code -Dbench.shard=I/N}) into the run the whole plan would have made: the union of
 * their cells in plan order, their fork JVMs, and everything computed from cells (the batch-scaling fits and verdicts,
 * the resources and memory fits, the roofline cross-checks) computed again over the union, so {@code analyze}
 * reproduces it and {@code compare} takes it like any run.
 *
 * <p>Refused, with the reason: runs that are not shards, shards of different plans (their plan hashes differ), shards
 * measured with different rulers ({@link SameRuler}: another CPU or GPU, another model, calibrated peaks more than 15%
 * apart), a cell measured by two shards (unless {@code -Dmerge.keep=first|last}), and a missing shard (unless
 * {@code -Dmerge.partial=true}, which keeps the missing cells listed in the merged run as not measured).
 */
public final class Merge {
    /** Which measurement of a cell two shards both hold is kept; {@code REFUSE} stops the merge. */
    public enum Keep {
        REFUSE, FIRST, LAST;

        public static Keep parse(String text) {
            return switch (text.trim()) {
                case "" -> REFUSE;
                case "first" -> FIRST;
                case "last" -> LAST;
                default -> throw new BenchmarkException("-Dmerge.keep=" + text + " is not first or last: give -Dmerge.keep=first "
                        + "(or last) to keep that run's measurement of a cell two shards both measured, or leave it out");
            };
        }
    }

    /**
     * The merged run and what it lacks.
     *
     * @param missingShards the shards not given, as {@code I/N}; empty when all were
     * @param missingCells  the plan's cells no shard measured, by id
     */
    public record Outcome(RunResult run, List<String> missingShards, List<String> missingCells) {
    }

    private Merge() {
    }

    /**
     * The runs named: {@code run.json} files, run folders, or folders holding run folders (the {@code latest} and
     * {@code previous} links skipped), in the order given and, inside a folder, by name.
     */
    public static List<Path> resolve(List<String> names) {
        List<Path> files = new ArrayList<>();
        for (String name : names) {
            Path path = Path.of(name.trim()).toAbsolutePath().normalize();
            if (Files.isRegularFile(path)) {
                files.add(path);
            } else if (Files.isRegularFile(path.resolve(RunStore.RUN_FILE))) {
                files.add(path.resolve(RunStore.RUN_FILE));
            } else if (Files.isDirectory(path)) {
                List<Path> inside = new ArrayList<>();
                try (DirectoryStream<Path> dir = Files.newDirectoryStream(path)) {
                    for (Path p : dir) {
                        String n = p.getFileName().toString();
                        if (!n.equals(RunStore.LATEST) && !n.equals(RunStore.PREVIOUS) && !Files.isSymbolicLink(p)
                                && Files.isRegularFile(p.resolve(RunStore.RUN_FILE))) {
                            inside.add(p.resolve(RunStore.RUN_FILE));
                        }
                    }
                } catch (IOException e) {
                    throw new BenchmarkException("Could not list " + path + ": " + e.getMessage(), e);
                }
                if (inside.isEmpty()) {
                    throw new BenchmarkException(path + " holds no run folder (a folder with a run.json): name run.json files or "
                            + "run folders in -Druns");
                }
                inside.sort(Comparator.naturalOrder());
                files.addAll(inside);
            } else {
                throw new BenchmarkException("-Druns names " + name + ", which is neither a run.json nor a folder: give run.json "
                        + "files, run folders or folders of run folders, comma-separated");
            }
        }
        return files;
    }

    /** Whether every run is a shard (then {@link #samePlan} merges them), none is (a fleet), or a mix (refused). */
    public static boolean allShards(List<RunResult> runs) {
        long shards = runs.stream().filter(r -> r.config().plan().shard() != null).count();
        if (shards != 0 && shards != runs.size()) {
            throw new BenchmarkException("Some runs given are shards (-Dbench.shard) and some are not: merge a plan's shards "
                    + "on their own first, then the merged run with other hardware's runs");
        }
        return shards > 0;
    }

    /**
     * The shards of one plan as one run.
     *
     * @param defaultThresholds the regime thresholds to analyse with when the shards hold none
     */
    public static Outcome samePlan(List<RunResult> runs, Keep keep, boolean partial, RegimeThresholds defaultThresholds) {
        RunConfig.ShardInfo first = runs.get(0).config().plan().shard();
        for (RunResult r : runs) {
            RunConfig.ShardInfo s = r.config().plan().shard();
            if (!s.planHash().equals(first.planHash())) {
                throw new BenchmarkException("Run " + r.runId() + " is shard " + s.index() + "/" + s.count() + " of another plan (hash "
                        + s.planHash().substring(0, 12) + ", not " + first.planHash().substring(0, 12) + "): its cells or settings "
                        + "differ. Merge each plan's shards on their own; runs of different plans on different hardware make a fleet "
                        + "report once each plan is merged");
            }
            List<String> incomparable = SameRuler.measuredAlike(runs.get(0), r).incomparable();
            if (!incomparable.isEmpty()) {
                throw new BenchmarkException("Shard " + s.index() + "/" + s.count() + " (" + r.runId() + ") was not measured with the "
                        + "same ruler as shard " + first.index() + "/" + first.count() + " (" + runs.get(0).runId() + "): "
                        + String.join("; ", incomparable) + ". Run every shard of a plan on the same hardware type");
            }
        }
        TreeMap<Integer, RunResult> byIndex = new TreeMap<>();
        for (RunResult r : runs) {
            byIndex.putIfAbsent(r.config().plan().shard().index(), r);
        }
        List<String> missingShards = new ArrayList<>();
        for (int i = 1; i <= first.count(); i++) {
            if (!byIndex.containsKey(i)) {
                missingShards.add(i + "/" + first.count());
            }
        }
        Map<String, CellResult> cells = new LinkedHashMap<>();
        Map<String, String> from = new LinkedHashMap<>();
        for (RunResult r : runs) {
            for (CellResult c : r.cells()) {
                String id = c.id();
                if (cells.containsKey(id)) {
                    if (keep == Keep.REFUSE) {
                        throw new BenchmarkException("Cell " + id + " was measured by two shards (" + from.get(id) + " and " + r.runId()
                                + "): the same shard given twice, or shards of different counts. Give each shard once, or "
                                + "-Dmerge.keep=first (or last) to keep one measurement");
                    }
                    if (keep == Keep.FIRST) {
                        continue;
                    }
                }
                cells.put(id, c);
                from.put(id, r.runId());
            }
        }
        List<String> missingCells = first.planCells().stream().filter(id -> !cells.containsKey(id)).toList();
        if (!missingShards.isEmpty() && !partial) {
            RunResult any = runs.get(0);
            throw new BenchmarkException("Shard(s) " + String.join(", ", missingShards) + " of plan " + first.planHash().substring(0, 12)
                    + " are missing: " + missingCells.size() + " of its " + first.planCells().size() + " cells were not measured ("
                    + String.join(", ", missingCells.stream().limit(8).toList()) + (missingCells.size() > 8 ? ", ..." : "")
                    + "). Add the missing shard's run (-Dbench.shard=" + missingShards.get(0) + " with the same settings as "
                    + any.runId() + "), or pass -Dmerge.partial=true to merge without it");
        }
        List<CellResult> ordered = new ArrayList<>();
        for (String id : first.planCells()) {
            if (cells.containsKey(id)) {
                ordered.add(cells.get(id));
            }
        }
        List<RunConfig.ShardInfo> parts = byIndex.values().stream().map(r -> r.config().plan().shard().withRunId(r.runId())).toList();
        RunResult base = runs.get(0);
        List<ForkJvm> jvms = new ArrayList<>();
        runs.stream().map(RunResult::forkJvms).filter(Objects::nonNull).forEach(jvms::addAll);
        String started = runs.stream().map(RunResult::startedAt).filter(Objects::nonNull).min(Comparator.naturalOrder()).orElse(null);
        String finished = runs.stream().map(RunResult::finishedAt).filter(Objects::nonNull).max(Comparator.naturalOrder()).orElse(null);
        RunResult merged = new RunResult(base.schemaVersion(), "merged-" + first.planHash().substring(0, 12), started, finished,
                base.environment(), base.config().withPlan(base.config().plan().merged(parts)).withPlannedCells(first.planCells()),
                ordered).withForkJvms(jvms);
        RegimeThresholds thresholds = base.regimeThresholds() != null ? base.regimeThresholds() : defaultThresholds;
        Analysis analysis = RunAnalysis.analyze(merged, thresholds);
        merged = merged.withAnalysis(analysis);
        if (base.resources() != null) {
            merged = merged.withResources(Resources.of(merged, base.resources().memoryBudgetMb(), base.resources().budgetSource()));
        }
        if (runs.stream().allMatch(r -> r.profile() != null)) {
            merged = merged.withProfile(profile(runs, merged));
        }
        return new Outcome(merged, missingShards, missingCells);
    }

    /** The shards' profiles as one: each peak and fixed cost once (the first shard's), every cell, checks recomputed. */
    static ProfileResult profile(List<RunResult> runs, RunResult merged) {
        Map<String, ProfileResult.Calibration> peaks = new LinkedHashMap<>();
        Map<String, ProfileResult.ModelFloor> floors = new LinkedHashMap<>();
        Map<String, CellProfile> cells = new LinkedHashMap<>();
        for (RunResult r : runs) {
            r.profile().calibrations().forEach(c -> peaks.putIfAbsent(c.backend() + "|" + c.device() + "|" + c.intraOpThreads(), c));
            r.profile().floors().forEach(f -> floors.putIfAbsent(f.backend() + "|" + f.device() + "|" + f.model(), f));
            r.profile().cells().forEach(c -> cells.putIfAbsent(c.backend() + "|" + c.device() + "|" + c.model() + "|" + c.seqLen()
                    + "|" + c.batch(), c));
        }
        List<CellProfile> kept = cells.values().stream().filter(c -> merged.cells().stream().anyMatch(m -> m.measured()
                && m.backend().equals(c.backend()) && m.device().equals(c.device()) && m.model().equals(c.model())
                && m.seqLen() == c.seqLen() && m.batch() == c.batch())).toList();
        return new ProfileResult(List.copyOf(peaks.values()), List.copyOf(floors.values()), runs.get(0).profile().thresholds(), kept,
                ProfileRunner.crossChecks(merged.fits(), kept));
    }
}
