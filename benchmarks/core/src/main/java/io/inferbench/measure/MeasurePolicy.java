package io.inferbench.measure;

/**
 * How every cell of a sweep is warmed up and measured in each fork: the rules that say what "steady" and "precise"
 * meant for its numbers. Written into {@code run.json}'s config, and into each fork's plan.
 */
public record MeasurePolicy(WarmupPolicy warmup, StopPolicy stop) {
}
