package io.inferbench.cli;

import io.inferbench.option.Option;

/**
 * The commands' own settings besides a run's: {@code merge}'s and a fleet's, {@code analyze}'s, {@code compare}'s two
 * files and the {@code gate}'s. Read by each command.
 */
public enum CommandSetting implements Option.Defined {
    RUNS("runs", "", "`merge`: the runs to merge, comma-separated: `run.json` files, run folders, or folders of run folders"),
    MERGE_KEEP("merge.keep", "", "`merge`: `first` or `last` keeps that run's measurement of a cell two shards both "
            + "measured; empty refuses such a merge"),
    MERGE_PARTIAL("merge.partial", "false", "`merge`: merge shards with some missing (the report lists the missing cells) "
            + "instead of exiting with 2"),
    FLEET_PRICE("fleet.pricePerHour", "", "`merge` of runs on different hardware: `NAME=PRICE,...` per hour, for the cost "
            + "per million requests (or samples) and the cheapest hardware"),
    RUN("run", "", "`analyze`: the `run.json` to analyse"),
    OUT("out", "", "`analyze`, `compare`, `merge` and `example-models`: where to write; empty means beside the run "
            + "(analyze), the candidate (compare), a new folder under `results/` (merge), or `target/example-models`"),
    COMPARE_BASELINE("baseline", "", "`compare`: the baseline's `run.json`"),
    COMPARE_CANDIDATE("candidate", "", "`compare`: the candidate's `run.json`"),
    GATE_RUN("gate.run", "results/latest", "`gate`: the run a pull request's check must have measured (its folder or "
            + "`run.json`); none there fails the gate (docs/your-project.md)"),
    GATE_MAX_AGE("gate.maxAgeMinutes", "180", "`gate`: a run that started longer ago than this is not this build's, and "
            + "fails the gate");

    private final Option.Definition definition;

    CommandSetting(String property, String defaultValue, String meaning) {
        this.definition = new Option.Definition(property, defaultValue, meaning);
    }

    @Override
    public Option.Definition definition() {
        return definition;
    }
}
