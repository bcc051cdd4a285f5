package io.inferbench.engine;

/**
 * One row of {@code exec:java@gpucheck} that an engine reports about itself.
 *
 * @param check    what was checked
 * @param ok       it passed
 * @param found    what was found: the version that loads, or why it does not
 * @param fix      what to do when it did not pass; empty when it did
 * @param required the engine runs on CUDA only when this passes; false for a row that is informative only
 */
public record GpuReadiness(String check, boolean ok, String found, String fix, boolean required) {
}
