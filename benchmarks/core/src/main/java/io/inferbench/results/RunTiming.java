package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * Where a run's wall time went. The parts are measured, not estimated; {@code otherSeconds} is the wall time none of
 * them covers (the sweep JVM's own start-up, bookkeeping between phases), so that they add up to {@code wallSeconds}.
 * The sweep's parts and the stages after it are groups, written flat as they always were ({@link JsonUnwrapped}); an
 * accessor per field reads through the groups.
 *
 * @param wallSeconds      the sweep command, from its start in the sweep JVM to its last file (Maven's own start and
 *                         compilation come before it and are not counted)
 * @param preflightSeconds the checks before the first cell, real passes at the smallest and largest shape included
 * @param sweepSeconds     the sweep stage: every fork JVM, from the first one's launch to the last one's exit, the
 *                         bookkeeping between them, and the sweep's tables
 * @param otherSeconds     wall time outside every part above
 */
@JsonPropertyOrder({"wallSeconds", "preflightSeconds", "sweepSeconds", "inSweep", "afterSweep", "otherSeconds", "shares"})
public record RunTiming(double wallSeconds, double preflightSeconds, double sweepSeconds, @JsonUnwrapped InSweep inSweep,
                        @JsonUnwrapped AfterSweep afterSweep, double otherSeconds, @JsonUnwrapped Shares shares) {

    /**
     * The sweep's parts.
     *
     * @param measuredPassesSeconds   the exact sum of every measured pass's latency: the timed part of the sweep
     * @param warmupSeconds           every cell's first pass at its shape and its warm-up
     * @param setAsideSeconds         measurements set aside because other processes took more than 10% of the machine
     *                                while they ran, each measured again ({@code setAside} in a fork's measurement): their
     *                                wall time
     * @param jvmStarts               fork JVMs launched
     * @param jvmStartSeconds         their start-up: launch to {@code main}
     * @param engineAndSessionSeconds loading the engine and creating the session in each of them
     * @param sweepOverheadSeconds    the rest of the sweep: the stop rule's checks between measured passes, the CPU and
     *                                memory readings and the wait for idle compilers around each measurement, JMH's runs
     *                                around each cell, writing each cell's results, fork JVMs measured again after a
     *                                departure, JVM exits and the sweep's own bookkeeping
     */
    public record InSweep(double measuredPassesSeconds, double warmupSeconds, double setAsideSeconds, int jvmStarts,
                          double jvmStartSeconds, double engineAndSessionSeconds, double sweepOverheadSeconds) {
    }

    /**
     * The stages after the sweep.
     *
     * @param profileSeconds   peaks (calibration), fixed costs per call, per-cell profiles
     * @param agreementSeconds output agreement against a reference
     * @param workloadSeconds  the real-input workload
     * @param servingSeconds   serving under load
     * @param reportSeconds    analysis, tables, plots, report.md and run.json
     */
    public record AfterSweep(double profileSeconds, double agreementSeconds, double workloadSeconds,
                             double servingSeconds, double reportSeconds) {
    }

    /**
     * @param timedShareOfSweep measured passes / sweep
     * @param timedShareOfWall  measured passes / wall
     */
    public record Shares(double timedShareOfSweep, double timedShareOfWall) {
    }

    // Each group's fields, read through the group, as before the groups.

    public double measuredPassesSeconds() {
        return inSweep.measuredPassesSeconds();
    }

    public double warmupSeconds() {
        return inSweep.warmupSeconds();
    }

    public double setAsideSeconds() {
        return inSweep.setAsideSeconds();
    }

    public int jvmStarts() {
        return inSweep.jvmStarts();
    }

    public double jvmStartSeconds() {
        return inSweep.jvmStartSeconds();
    }

    public double engineAndSessionSeconds() {
        return inSweep.engineAndSessionSeconds();
    }

    public double sweepOverheadSeconds() {
        return inSweep.sweepOverheadSeconds();
    }

    public double profileSeconds() {
        return afterSweep.profileSeconds();
    }

    public double agreementSeconds() {
        return afterSweep.agreementSeconds();
    }

    public double workloadSeconds() {
        return afterSweep.workloadSeconds();
    }

    public double servingSeconds() {
        return afterSweep.servingSeconds();
    }

    public double reportSeconds() {
        return afterSweep.reportSeconds();
    }

    public double timedShareOfSweep() {
        return shares.timedShareOfSweep();
    }

    public double timedShareOfWall() {
        return shares.timedShareOfWall();
    }
}
