/**
 * What you write to time your own inference code with inferbench, the way a JMH user writes a benchmark: a class that
 * implements {@link io.inferbench.api.InferenceTarget}, compiled against this package alone, run with
 * {@code -Dbench.target=your.Class -Dbench.classpath=your/classes}. The harness then times your {@link
 * io.inferbench.api.Call} as it times an engine's forward pass: in fork JVMs, warmed up until steady and measured until
 * precise, at every sequence length and batch, under serving loads, with compare against a baseline; and every {@link
 * io.inferbench.api.Stage} you mark inside the call gets its own histogram beside the whole call's.
 *
 * <p>The contract, in order: {@link io.inferbench.api.InferenceTarget#open} once per JVM (untimed: load models,
 * tokenizers, clients); {@link io.inferbench.api.InferenceTarget#prepare} once per cell in a sweep (untimed), once per
 * request under serving (timed, as the request's {@code prepare} stage); {@link io.inferbench.api.Call#run} the timed
 * region, whose result the harness consumes; {@link io.inferbench.api.InferenceTarget#close} at the end. docs/targets.md
 * shows two targets end to end.
 *
 * <p>Nothing in this package depends on the rest of inferbench, or on anything but the JDK, so it can stay stable while
 * the harness changes. It is the artifact {@code io.inferbench:inferbench-api}, and its versions are semantic: a
 * signature never changes or goes away within a major version, and one is added only with a new minor version. The
 * signatures of each version are recorded in {@code benchmarks/api/signatures/}, and a test fails the build when they
 * change without the version.
 */
package io.inferbench.api;
