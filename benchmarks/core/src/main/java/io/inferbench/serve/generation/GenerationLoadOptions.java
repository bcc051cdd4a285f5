package io.inferbench.serve.generation;

import io.inferbench.BenchmarkException;
import io.inferbench.serve.Arrivals;
import io.inferbench.serve.ServeOptions;

import java.util.List;

/**
 * Generation requests under open-loop load (the command line builds it from {@code bench.generate}, {@code bench.seq},
 * {@code bench.rate}, {@code bench.batching}, {@code bench.batch}, {@code bench.maxWaitMs}, {@code bench.serveSeconds},
 * {@code bench.arrivals} and {@code bench.sla.ttftMs}/{@code tpotMs}).
 *
 * @param policies     the batching policies, each run at every rate and searched against the SLO
 * @param ratesRps     arrival rates, requests/s; may be empty when an SLO asks for the search alone
 * @param maxBatch     the most requests one batch holds
 * @param maxWaitMs    how long static batching holds its oldest request for a fuller batch
 * @param pointSeconds how long each point sends requests
 * @param shape        each request's prompt length and new tokens
 * @param slo          the p99 bounds judged, or null for none
 */
public record GenerationLoadOptions(List<Batching> policies, List<Double> ratesRps, Arrivals arrivals, int maxBatch,
                                    double maxWaitMs, double pointSeconds, long seed, LoadShape shape, Slo slo) {
    /**
     * The SLO: p99 bounds on TTFT and TPOT (at least one), as MLPerf LoadGen's LLM server scenario judges them.
     *
     * @param maxErrorRate the largest share of failed or unfinished requests a point may have and meet it
     */
    public record Slo(Double ttftMs, Double tpotMs, double maxErrorRate) {
        public Slo {
            if (ttftMs == null && tpotMs == null) {
                throw new IllegalArgumentException("an SLO bounds TTFT, TPOT or both");
            }
            for (Double bound : new Double[] {ttftMs, tpotMs}) {
                if (bound != null && !(bound > 0 && bound < Double.POSITIVE_INFINITY)) {
                    throw new BenchmarkException("-Dbench.sla.ttftMs and -Dbench.sla.tpotMs must be more than 0 ms, got "
                            + bound);
                }
            }
        }

        /** Both p99s within their bounds (an unbound one passes). */
        public boolean meets(Double ttftP99Ms, Double tpotP99Ms) {
            return (ttftMs == null || ttftP99Ms != null && ttftP99Ms <= ttftMs)
                    && (tpotMs == null || tpotP99Ms == null || tpotP99Ms <= tpotMs);
        }

        public String describe() {
            return (ttftMs == null ? "" : "TTFT p99 <= " + io.inferbench.Text.plain(ttftMs) + " ms")
                    + (ttftMs != null && tpotMs != null ? " and " : "")
                    + (tpotMs == null ? "" : "TPOT p99 <= " + io.inferbench.Text.plain(tpotMs) + " ms");
        }
    }

    public GenerationLoadOptions {
        policies = List.copyOf(policies);
        ratesRps = List.copyOf(ratesRps);
        if (ratesRps.isEmpty() && slo == null) {
            throw new BenchmarkException("generation under load needs rates (-Dbench.rate=2,5) or an SLO to search "
                    + "(-Dbench.sla.ttftMs, -Dbench.sla.tpotMs)");
        }
        for (double rate : ratesRps) {
            ServeOptions.checkRate(rate, pointSeconds, "-Dbench.rate");
        }
        if (maxBatch < 1) {
            throw new BenchmarkException("generation under load needs a batch of 1 or more requests (-Dbench.batch)");
        }
        if (!(maxWaitMs >= 0) || Double.isInfinite(maxWaitMs)) {
            throw new BenchmarkException("-Dbench.maxWaitMs must be 0 or more milliseconds, got " + maxWaitMs);
        }
    }

    /** The longest a point waits for its last requests after the last send: what an unfinished request counts at. */
    public long drainNs() {
        return (long) (Math.max(5, pointSeconds) * 1e9);
    }
}
