package io.inferbench.api;

/**
 * Your inference code, as the harness times it: what a service does for one request (tokenize, run a model, post-process,
 * serialize), behind three methods. One instance per fork JVM, made with its public no-argument constructor.
 *
 * <p><b>The device is yours to synchronize.</b> The harness times {@link Call#run} from its call to its return: if your
 * code launches work on a GPU, it must wait for that work (read the result back, or synchronize the stream) before it
 * returns, or the time is the launch's, not the work's. {@link TargetContext#device} is the device the run asked for; the
 * harness records it as your target's device, and cannot check that your code used it.
 *
 * <p><b>Threads.</b> Under serving with several workers ({@code -Dbench.concurrency} above 1, or batching workers), calls
 * made by different threads run at once: {@link #prepare} and the {@link Call}s it returns must then be safe to use from
 * several threads, each call on its own thread.
 */
public interface InferenceTarget extends AutoCloseable {
    /**
     * Once per JVM, before anything is timed: load models, tokenizers, clients. Throwing here stops the run before
     * anything is measured, naming your class and the first frame of your code.
     */
    void open(TargetContext context) throws Exception;

    /**
     * One call's inputs at {@code shape}: untimed in a sweep (once per cell), timed under serving (once per request, as
     * its {@code prepare} stage, since a service builds each request's inputs).
     */
    Call prepare(Shape shape) throws Exception;

    /** At the end of the JVM, after every call; the default does nothing. */
    @Override
    default void close() throws Exception {
    }
}
