package io.inferbench.runner;

/**
 * How many fresh JVMs a sweep starts ({@code -Dbench.isolation}).
 *
 * <ul>
 *   <li>{@link #MODEL}, the default: one per (engine, device, model) per fork round. It runs that model's cells in a
 *       seeded order that differs from round to round, reusing one session across shapes; each cell has its own
 *       warm-up and measurement. JVM start, engine load, session creation and the JIT's warm-up are paid once per
 *       model and round instead of once per cell.</li>
 *   <li>{@link #CELL}: one per cell per round, as JMH's own forks would: every cell pays them, and its first pass is the
 *       JVM's cold first inference. The slowest and most isolated choice, for when cells must not share a process.</li>
 * </ul>
 * Forks stay the unit of replication either way: a cell's rounds run in different JVMs minutes apart.
 */
public enum Isolation implements JvmOption {
    MODEL,
    CELL
}
