package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.analysis.SeqScalingFit;
import io.inferbench.analysis.SeriesFit;

import java.util.List;

/**
 * The whole of {@code run.json}: a run is its conditions (header, environment, config) and its sections, each group
 * written flat ({@link JsonUnwrapped}). {@link #SCHEMA_VERSION} changes whenever the shape changes, so readers can
 * refuse files they do not understand; older files read as they are, without what their version lacked (each version's
 * additions: docs/run-json.md, {@code schemaVersion}).
 */
@JsonPropertyOrder({"header", "environment", "config", "cells", "scaling", "sections", "execution", "accounts",
        "comparison", "generation", "ab"})
public record RunResult(
        @JsonUnwrapped Header header,
        EnvironmentInfo environment,
        RunConfig config,
        List<CellResult> cells,
        @JsonUnwrapped Scaling scaling,
        @JsonUnwrapped Sections sections,
        @JsonUnwrapped Execution execution,
        @JsonUnwrapped Accounts accounts,
        ComparisonSummary comparison,
        GenerationResult generation,
        AbSection ab) {

    public static final int SCHEMA_VERSION = 11;

    /** A group is never null (an absent one reads back as every field null, so it is written as one). */
    public RunResult {
        scaling = scaling == null ? Scaling.NONE : scaling;
        sections = sections == null ? Sections.NONE : sections;
        execution = execution == null ? Execution.NONE : execution;
        accounts = accounts == null ? Accounts.NONE : accounts;
    }

    /** Which run, of which schema, and when it started and finished. */
    public record Header(int schemaVersion, String runId, String startedAt, String finishedAt) {
    }

    /** The batch-scaling analysis: absent until the sweep has finished. */
    public record Scaling(RegimeThresholds regimeThresholds, List<SeriesFit> fits, List<SeqScalingFit> seqScaling) {
        static final Scaling NONE = new Scaling(null, null, null);
    }

    /** What the stages after the sweep measured, each present only when asked for. */
    public record Sections(ServingResult serving, WorkloadResult workload, ProfileResult profile, AgreementResult agreement) {
        static final Sections NONE = new Sections(null, null, null, null);
    }

    /** The fork JVMs the run started, with their cold starts, and where its wall time went. */
    public record Execution(List<ForkJvm> forkJvms, RunTiming timing) {
        static final Execution NONE = new Execution(null, null);
    }

    /**
     * What the run used and where its stages went.
     *
     * @param resources each cell's memory, CPU and energy, and the largest batch that fits a memory budget
     * @param stages    each stage of the run, how long it took, and the error of one that failed
     */
    public record Accounts(ResourcesResult resources, List<StageResult> stages) {
        static final Accounts NONE = new Accounts(null, null);
    }

    /** The cells that were measured, of every kind: the sweep's that did not fail, and generation's. */
    public int measuredCells() {
        int measured = (int) cells.stream().filter(c -> c.status() == CellStatus.OK).count();
        return measured + (generation == null || generation.cells() == null ? 0 : generation.cells().size());
    }

    /** A run as it starts: its conditions, nothing measured yet. */
    public RunResult(int schemaVersion, String runId, String startedAt, String finishedAt, EnvironmentInfo environment,
                     RunConfig config, List<CellResult> cells) {
        this(new Header(schemaVersion, runId, startedAt, finishedAt), environment, config, cells, Scaling.NONE,
                Sections.NONE, Execution.NONE, Accounts.NONE, null, null, null);
    }

    public RunResult withCells(List<CellResult> newCells, String newFinishedAt) {
        return new RunResult(new Header(schemaVersion(), runId(), startedAt(), newFinishedAt), environment, config,
                List.copyOf(newCells), scaling, sections, execution, accounts, comparison, generation, ab);
    }

    public RunResult withAnalysis(Analysis analysis) {
        return new RunResult(header, environment, config, cells,
                new Scaling(analysis.thresholds(), analysis.fits(), analysis.seqScaling()), sections, execution, accounts,
                comparison, generation, ab);
    }

    public RunResult withServing(ServingResult newServing) {
        return withSections(new Sections(newServing, workload(), profile(), agreement()));
    }

    public RunResult withWorkload(WorkloadResult newWorkload) {
        return withSections(new Sections(serving(), newWorkload, profile(), agreement()));
    }

    public RunResult withProfile(ProfileResult newProfile) {
        return withSections(new Sections(serving(), workload(), newProfile, agreement()));
    }

    public RunResult withAgreement(AgreementResult newAgreement) {
        return withSections(new Sections(serving(), workload(), profile(), newAgreement));
    }

    private RunResult withSections(Sections newSections) {
        return new RunResult(header, environment, config, cells, scaling, newSections, execution, accounts, comparison,
                generation, ab);
    }

    public RunResult withForkJvms(List<ForkJvm> newForkJvms) {
        return withExecution(new Execution(List.copyOf(newForkJvms), timing()));
    }

    public RunResult withTiming(RunTiming newTiming) {
        return withExecution(new Execution(forkJvms(), newTiming));
    }

    private RunResult withExecution(Execution newExecution) {
        return new RunResult(header, environment, config, cells, scaling, sections, newExecution, accounts, comparison,
                generation, ab);
    }

    public RunResult withResources(ResourcesResult newResources) {
        return new RunResult(header, environment, config, cells, scaling, sections, execution,
                new Accounts(newResources, stages()), comparison, generation, ab);
    }

    public RunResult withStages(List<StageResult> newStages) {
        return new RunResult(header, environment, config, cells, scaling, sections, execution,
                new Accounts(resources(), List.copyOf(newStages)), comparison, generation, ab);
    }

    public RunResult withGeneration(GenerationResult newGeneration) {
        return new RunResult(header, environment, config, cells, scaling, sections, execution, accounts, comparison,
                newGeneration, ab);
    }

    public RunResult withAb(AbSection newAb) {
        return new RunResult(header, environment, config, cells, scaling, sections, execution, accounts, comparison,
                generation, newAb);
    }

    public RunResult withComparison(ComparisonSummary newComparison) {
        return new RunResult(header, environment, config, cells, scaling, sections, execution, accounts, newComparison,
                generation, ab);
    }

    public RunResult withConfig(RunConfig newConfig) {
        return new RunResult(header, environment, newConfig, cells, scaling, sections, execution, accounts, comparison,
                generation, ab);
    }

    public RunResult withEnvironment(EnvironmentInfo newEnvironment) {
        return new RunResult(header, newEnvironment, config, cells, scaling, sections, execution, accounts, comparison,
                generation, ab);
    }

    /** The same run under another id and schema version (a merge's, an older file's). */
    public RunResult withIdentity(int newSchemaVersion, String newRunId) {
        return new RunResult(new Header(newSchemaVersion, newRunId, startedAt(), finishedAt()), environment, config, cells,
                scaling, sections, execution, accounts, comparison, generation, ab);
    }

    /** The stored analysis, or null when this run has none (unfinished, or schema 1). */
    public Analysis analysis() {
        return fits() == null ? null : new Analysis(regimeThresholds(), fits(), seqScaling());
    }

    /** Every fork run of every cell, the sweep's and generation's: what the run's time account adds up. */
    public List<CellFork> forkRuns() {
        java.util.stream.Stream<List<CellFork>> sweep = cells.stream().map(CellResult::forkRuns);
        java.util.stream.Stream<List<CellFork>> generated = generation == null ? java.util.stream.Stream.empty()
                : generation.cells().stream().map(GenerationResult.Cell::forkRuns);
        return java.util.stream.Stream.concat(sweep, generated).filter(java.util.Objects::nonNull).flatMap(List::stream).toList();
    }

    /** The stages that failed, by name; empty in runs before schema 11. */
    public List<String> failedStages() {
        return stages() == null ? List.of() : stages().stream().filter(StageResult::failed).map(StageResult::name).toList();
    }

    /** Cells that failed by a crash of inferbench itself ({@link CellResult#harnessCrash()}), the sweep's and generation's. */
    public long crashedCells() {
        return cells.stream().filter(CellResult::harnessCrash).count() + (generation == null ? 0
                : generation.failures().stream().filter(f -> f.contains(CellResult.HARNESS_CRASH)).count());
    }

    /** The cells that were not measured, the sweep's and generation's. */
    public long failedCells() {
        return cells.stream().filter(c -> !c.measured()).count() + (generation == null ? 0 : generation.failures().size());
    }

    // Each group's fields, read through the group, as before the groups.

    public int schemaVersion() {
        return header.schemaVersion();
    }

    public String runId() {
        return header.runId();
    }

    public String startedAt() {
        return header.startedAt();
    }

    public String finishedAt() {
        return header.finishedAt();
    }

    public RegimeThresholds regimeThresholds() {
        return scaling.regimeThresholds();
    }

    public List<SeriesFit> fits() {
        return scaling.fits();
    }

    public List<SeqScalingFit> seqScaling() {
        return scaling.seqScaling();
    }

    public ServingResult serving() {
        return sections.serving();
    }

    public WorkloadResult workload() {
        return sections.workload();
    }

    public ProfileResult profile() {
        return sections.profile();
    }

    public AgreementResult agreement() {
        return sections.agreement();
    }

    public List<ForkJvm> forkJvms() {
        return execution.forkJvms();
    }

    public RunTiming timing() {
        return execution.timing();
    }

    public ResourcesResult resources() {
        return accounts.resources();
    }

    public List<StageResult> stages() {
        return accounts.stages();
    }
}
