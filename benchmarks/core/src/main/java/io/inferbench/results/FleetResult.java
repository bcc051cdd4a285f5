package io.inferbench.results;

import java.util.List;

/**
 * A fleet report's content ({@code fleet.json}): machines side by side on the cells they all measured
 * ({@link io.inferbench.shard.Fleet} builds it).
 *
 * @param cheapest  the machine that serves a million requests (or, without serving on every machine, samples) at the
 *                  lowest cost; null without prices for every machine
 * @param costBasis what {@code cheapest} was decided on
 */
public record FleetResult(List<FleetResult.Host> hosts, List<FleetResult.Row> cells, List<FleetResult.Verdicts> verdicts,
                          String cheapest, String costBasis) {
    /**
     * One machine.
     *
     * @param pricePerHour            from {@code -Dfleet.pricePerHour}; null when not given
     * @param slaRps                  the highest rate any policy carried under the SLA; null without serving
     * @param costPerMillionRequests  {@code pricePerHour / (slaRps * 3600) * 1e6}; null without both
     * @param bestSamplesPerSecond    the sweep's highest single-stream throughput (batch / mean pass), over shared cells
     * @param costPerMillionSamples   {@code pricePerHour / (bestSamplesPerSecond * 3600) * 1e6}; null without a price
     */
    public record Host(String label, String identity, String runId, List<String> devices, Double pricePerHour, Double slaP99Ms,
                       Double slaRps, String slaPolicy, Double costPerMillionRequests, Double bestSamplesPerSecond,
                       String bestCell, Double costPerMillionSamples) {
    }

    /** One shared cell: p50 and p99 per machine, in the hosts' order (null where that machine failed it). */
    public record Row(String backend, String model, int seqLen, int batch, List<Double> p50Ms, List<Double> p99Ms) {
    }

    /** One shared series' regime per machine, in the hosts' order. */
    public record Verdicts(String backend, String model, int seqLen, List<String> regimes) {
    }
}
