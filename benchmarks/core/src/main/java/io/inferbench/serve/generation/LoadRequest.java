package io.inferbench.serve.generation;

/**
 * One generation request of a load point and what happened to it, every time in nanoseconds on the point's clock (0 at
 * its start). Written by the scheduler's one thread.
 */
final class LoadRequest {
    final int index;
    /** When it was meant to be sent: its place on the schedule. */
    final long intendedNs;
    final long[] prompt;
    final int newTokens;
    /** When its prefill started; -1 before. */
    long prefillStartNs = -1;
    /** When each of its tokens was picked. */
    final long[] tokenNs;
    int tokens;
    /** The last token picked: the next step's input for its row. */
    long lastToken;
    String error;

    LoadRequest(int index, long intendedNs, long[] prompt, int newTokens) {
        this.index = index;
        this.intendedNs = intendedNs;
        this.prompt = prompt;
        this.newTokens = newTokens;
        this.tokenNs = new long[newTokens];
    }

    boolean done() {
        return tokens == newTokens;
    }

    boolean failed() {
        return error != null;
    }

    void token(long token, long atNs) {
        if (tokens < newTokens) {
            tokenNs[tokens++] = atNs;
            lastToken = token;
        }
    }
}
