package io.inferbench.pipeline;

import io.inferbench.compare.BaselineCheck;
import io.inferbench.generate.GenerationKind;
import io.inferbench.precision.AgreementOptions;
import io.inferbench.runner.SweepOptions;
import io.inferbench.serve.ServeOptions;
import io.inferbench.serve.generation.GenerationLoadOptions;
import io.inferbench.shard.Shard;
import io.inferbench.workload.Workload;
import io.inferbench.workload.WorkloadOptions;

/**
 * Everything a benchmark run was asked to do, resolved and checked before it starts: the sweep, and each stage after it.
 *
 * @param generation     {@code -Dbench.generate}: the cells are generations of this kind; null for the sweep of forward
 *                       passes
 * @param shard          {@code -Dbench.shard}: this run's part of the plan, or null for all of it
 * @param workload       the workload, loaded and checked already; null when none was given
 * @param memoryBudgetMb {@code -Dbench.memoryBudgetMb}, or null
 * @param profile        {@code -Dbench.profile}
 * @param baseline       {@code -Dbench.baseline}, read already; null when none was given
 * @param mavenCommand   the Maven arguments ({@code MAVEN_CMD_LINE_ARGS}), or null when Maven did not start the run
 * @param jvmCommand     this JVM's command line
 * @param generationLoad generation requests under load after the generation cells; null for none
 * @param servingJvm     the JVM that serves a target ({@link ServingFork}); null to serve in the run's own JVM, as an
 *                       engine's model is and as a test's in-process run is
 */
public record RunOptions(SweepOptions sweep, GenerationKind generation, Shard shard, ServeOptions serve, WorkloadOptions workloadOptions,
                         Workload workload, AgreementOptions agreement, Double memoryBudgetMb, boolean profile,
                         BaselineCheck baseline, String mavenCommand, String jvmCommand, GenerationLoadOptions generationLoad,
                         ServingFork.Jvm servingJvm) {
    /** Without generation under load. */
    public RunOptions(SweepOptions sweep, GenerationKind generation, Shard shard, ServeOptions serve,
                      WorkloadOptions workloadOptions, Workload workload, AgreementOptions agreement, Double memoryBudgetMb,
                      boolean profile, BaselineCheck baseline, String mavenCommand, String jvmCommand) {
        this(sweep, generation, shard, serve, workloadOptions, workload, agreement, memoryBudgetMb, profile, baseline,
                mavenCommand, jvmCommand, null, null);
    }

    /** As these, the target served in {@code jvm}. */
    public RunOptions servedIn(ServingFork.Jvm jvm) {
        return new RunOptions(sweep, generation, shard, serve, workloadOptions, workload, agreement, memoryBudgetMb, profile,
                baseline, mavenCommand, jvmCommand, generationLoad, jvm);
    }
}
