package io.inferbench.report;

import java.util.List;

/**
 * The whole of {@code run.json}. {@link #SCHEMA_VERSION} changes whenever the shape changes, so readers can
 * refuse or migrate files they do not understand.
 */
public record RunResult(
        int schemaVersion,
        String runId,
        String startedAt,
        String finishedAt,
        EnvironmentInfo environment,
        RunConfig config,
        List<CellResult> cells) {

    public static final int SCHEMA_VERSION = 1;

    public RunResult withCells(List<CellResult> newCells, String newFinishedAt) {
        return new RunResult(schemaVersion, runId, startedAt, newFinishedAt, environment, config, List.copyOf(newCells));
    }
}
