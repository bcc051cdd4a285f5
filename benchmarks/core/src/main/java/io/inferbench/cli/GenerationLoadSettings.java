package io.inferbench.cli;

import io.inferbench.option.PropertyValues;
import io.inferbench.option.Option;
import io.inferbench.serve.ServeSetting;
import io.inferbench.BenchmarkException;
import io.inferbench.generate.GenerationKind;
import io.inferbench.runner.SweepOptions;
import io.inferbench.serve.Arrivals;
import io.inferbench.serve.generation.Batching;
import io.inferbench.serve.generation.GenerationLoadOptions;
import io.inferbench.serve.generation.LoadShape;

import java.util.Collections;
import java.util.List;
import java.util.Properties;

/**
 * Generation under load from the command line: {@code -Dbench.generate} with {@code -Dbench.rate} or
 * {@code -Dbench.batching}, and what goes with them; each mistake refused before anything runs.
 */
final class GenerationLoadSettings {
    private GenerationLoadSettings() {
    }

    /** {@code N} or {@code MIN-MAX}: the new tokens' bounds. */
    static int[] newTokens(Properties p) {
        String value = Setting.GENERATE.value(p).trim();
        int dash = value.indexOf('-', 1);
        if (dash < 0) {
            int n = PropertyValues.positiveInt(Setting.GENERATE, p);
            return new int[] {n, n};
        }
        int min = PropertyValues.parseInt(value.substring(0, dash), Setting.GENERATE);
        int max = PropertyValues.parseInt(value.substring(dash + 1), Setting.GENERATE);
        if (min < 1 || max < min) {
            throw new BenchmarkException("-Dbench.generate=" + value + " is an empty range of new tokens: give N, or "
                    + "MIN-MAX with 1 <= MIN <= MAX, e.g. 16-64");
        }
        return new int[] {min, max};
    }

    /** Whether generation under load was asked for. */
    static boolean asked(Properties p) {
        return Setting.GENERATE.userValue(p).isPresent()
                && (ServeSetting.RATE.userValue(p).isPresent() || ServeSetting.BATCHING.userValue(p).isPresent());
    }

    /**
     * What the load's refusals say before the run: settings for it without generation, an SLO with nothing to judge,
     * a range of new tokens without load, and a sampled pick under load.
     */
    static void check(Properties p) {
        boolean generate = Setting.GENERATE.userValue(p).isPresent();
        for (Option s : List.of(ServeSetting.BATCHING, ServeSetting.SLA_TTFT_MS, ServeSetting.SLA_TPOT_MS)) {
            if (s.userValue(p).isPresent() && !generate) {
                throw new BenchmarkException("-D" + s.property() + " is for generation under load: add -Dbench.generate=N "
                        + "(or MIN-MAX) with a decoder and -Dbench.rate (docs/generation.md); serving forward passes has "
                        + "-Dbench.sla.p99Ms");
            }
        }
        if (!generate) {
            return;
        }
        boolean slo = ServeSetting.SLA_TTFT_MS.userValue(p).isPresent() || ServeSetting.SLA_TPOT_MS.userValue(p).isPresent();
        if (slo && !asked(p)) {
            throw new BenchmarkException("an SLO (-Dbench.sla.ttftMs, -Dbench.sla.tpotMs) judges requests under load, and "
                    + "none was asked for: add -Dbench.rate=2,5 to judge those rates (goodput), or "
                    + "-Dbench.batching=static,continuous to search each policy's highest rate within it");
        }
        int[] tokens = newTokens(p);
        if (tokens[0] != tokens[1] && !asked(p)) {
            throw new BenchmarkException("-Dbench.generate=" + tokens[0] + "-" + tokens[1] + " draws each request's new "
                    + "tokens under load, and no load was asked for: add -Dbench.rate (docs/generation.md), or give one "
                    + "number of new tokens for the generation cells");
        }
        if (!asked(p)) {
            if (ServeSetting.MAX_WAIT_MS.userValue(p).isPresent()) {
                throw new BenchmarkException("-Dbench.maxWaitMs with -Dbench.generate is static batching's wait under load: "
                        + "add -Dbench.rate, or drop -Dbench.maxWaitMs");
            }
            return;
        }
        if (ServeSetting.SLA_P99_MS.userValue(p).isPresent()) {
            throw new BenchmarkException("-Dbench.sla.p99Ms bounds a forward pass's latency; a generation's SLO is "
                    + "-Dbench.sla.ttftMs and -Dbench.sla.tpotMs (docs/generation.md)");
        }
        if (Setting.SAMPLING.userValue(p).isPresent() && !"greedy".equals(Setting.SAMPLING.value(p).trim())) {
            throw new BenchmarkException("requests under load pick their tokens greedily; -Dbench.sampling applies to the "
                    + "generation cells alone: drop it, or drop -Dbench.rate/-Dbench.batching");
        }
        if (PropertyValues.doubles(ServeSetting.MAX_WAIT_MS, p).size() > 1) {
            throw new BenchmarkException("-Dbench.maxWaitMs under generation load takes one wait for static batching, got "
                    + ServeSetting.MAX_WAIT_MS.value(p));
        }
    }

    /** The load, or null when none was asked for. */
    static GenerationLoadOptions load(Properties p, SweepOptions sweep) {
        check(p);
        if (!asked(p)) {
            return null;
        }
        int[] tokens = newTokens(p);
        List<Batching> policies = Batching.parseAll(ServeSetting.BATCHING.userValue(p).orElse("static,continuous"));
        Double ttft = ServeSetting.SLA_TTFT_MS.userValue(p).isPresent() ? PropertyValues.parseDouble(ServeSetting.SLA_TTFT_MS, p) : null;
        Double tpot = ServeSetting.SLA_TPOT_MS.userValue(p).isPresent() ? PropertyValues.parseDouble(ServeSetting.SLA_TPOT_MS, p) : null;
        GenerationLoadOptions.Slo slo = ttft == null && tpot == null ? null
                : new GenerationLoadOptions.Slo(ttft, tpot, PropertyValues.parseDouble(ServeSetting.SLA_MAX_ERROR_RATE, p));
        List<Double> waits = PropertyValues.doubles(ServeSetting.MAX_WAIT_MS, p);
        return new GenerationLoadOptions(policies, PropertyValues.doubles(ServeSetting.RATE, p),
                Arrivals.parse(ServeSetting.ARRIVALS.value(p)), Collections.max(sweep.plan().batches()),
                waits.isEmpty() ? 0 : waits.get(0), PropertyValues.parseDouble(ServeSetting.SERVE_SECONDS, p),
                sweep.rules().seed(), new LoadShape(sweep.plan().seqLens(), tokens[0], tokens[1]), slo);
    }

    /** What the load needs of the decoder's rows, for the preflight to check when it opens it. */
    static GenerationKind.LoadRows rows(GenerationLoadOptions load) {
        if (load == null) {
            return GenerationKind.LoadRows.NONE;
        }
        boolean padded = load.policies().stream().anyMatch(Batching::rowsJoinAndLeave) || load.shape().promptLengths().size() > 1;
        return padded ? GenerationKind.LoadRows.PADDED : GenerationKind.LoadRows.EQUAL;
    }
}
