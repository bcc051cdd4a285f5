package io.inferbench.serve.generation;

import io.inferbench.Text;
import io.inferbench.engine.Pairing;
import io.inferbench.results.GenerationResult;
import io.inferbench.results.GenerationServing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a load point's batches mean: where its decode steps sat on the cells' batch curve and the roofline, at the rows
 * the policy actually formed; and which policy held the SLO at the highest rate.
 */
final class GenerationLoadReading {
    private final PassCurves curves;
    private final GenerationResult generation;
    private final Pairing pairing;

    GenerationLoadReading(PassCurves curves, GenerationResult generation, Pairing pairing) {
        this.curves = curves;
        this.generation = generation;
        this.pairing = pairing;
    }

    /**
     * For example: "continuous batching ran decode steps at 3.2 rows on average, where a step costs 1.15x batch 1 on the
     * cells' curve (prompt 64): the decode fit calls it memory-bound (rho 0.05); the step at batch 4 is in between on
     * the roofline". Null where no step ran; without the curve, the rows alone.
     */
    String verdict(Batching policy, GenerationServing.Formed formed) {
        if (formed.meanStepRows() == null) {
            return null;
        }
        double rows = formed.meanStepRows();
        String head = Text.f("%s batching ran decode steps at %.1f rows on average", policy.label(), rows);
        if (curves == null || Double.isNaN(curves.stepCostOverOne(rows))) {
            return head + " (the cells measured one batch size: no curve to place them on)";
        }
        int seq = curves.stepSeq();
        StringBuilder s = new StringBuilder(head).append(Text.f(", where a step costs %.2fx batch 1 on the cells' curve "
                + "(prompt %d)", curves.stepCostOverOne(rows), seq));
        GenerationResult.Fit fit = generation == null ? null : generation.fits().stream()
                .filter(f -> "decode".equals(f.phase()) && f.seqLen() == seq && same(f.backend(), f.device(), f.model()))
                .findFirst().orElse(null);
        if (fit != null && fit.regime() != null) {
            s.append(": the decode fit calls it ").append(fit.regime().label())
                    .append(fit.rho() == null ? "" : Text.f(" (rho %.2f)", fit.rho()));
        }
        GenerationResult.Cell nearest = generation == null ? null : generation.cells().stream()
                .filter(c -> c.seqLen() == seq && c.stepRoofline() != null && same(c.backend(), c.device(), c.model()))
                .min(Comparator.comparingDouble(c -> Math.abs(c.batch() - rows))).orElse(null);
        if (nearest != null && nearest.stepRoofline().rooflineClass() != null) {
            s.append(Text.f("; the step at batch %d is %s on the roofline", nearest.batch(),
                    nearest.stepRoofline().rooflineClass()));
        }
        return s.toString();
    }

    private boolean same(String backend, String device, String model) {
        return backend.equals(pairing.engine()) && device.equals(pairing.device()) && model.equals(pairing.model());
    }

    /**
     * Per engine, device and model: the policy that held the SLO at the highest rate, with the others' and the
     * forecasts beside them; null without an SLO.
     */
    static String answer(List<GenerationServing.Boundary> boundaries, GenerationLoadOptions.Slo slo) {
        if (slo == null || boundaries.isEmpty()) {
            return null;
        }
        Map<String, List<GenerationServing.Boundary>> byTarget = new LinkedHashMap<>();
        for (GenerationServing.Boundary b : boundaries) {
            byTarget.computeIfAbsent(b.served().backend() + "/" + b.served().device() + "/"
                    + Text.shortModelName(b.served().model()), k -> new ArrayList<>()).add(b);
        }
        List<String> lines = new ArrayList<>();
        byTarget.forEach((target, list) -> {
            GenerationServing.Boundary best = list.stream().filter(b -> b.rateRps() != null)
                    .max(Comparator.comparingDouble(GenerationServing.Boundary::rateRps)).orElse(null);
            String each = String.join("; ", list.stream().map(b -> b.served().policy() + " " + (b.rateRps() == null
                    ? b.boundary() : Text.f("%.1f requests/s (%s)", b.rateRps(), b.boundary()))
                    + (b.forecastRps() == null ? "" : Text.f(", forecast %.1f", b.forecastRps()))).toList());
            lines.add(best == null ? Text.f("%s: no policy holds %s at any rate searched (%s)", target, slo.describe(), each)
                    : Text.f("%s: %s batching holds %s at the highest rate, %.1f requests/s, goodput %.1f requests/s (%s)",
                    target, best.served().policy(), slo.describe(), best.rateRps(), best.goodputRps(), each));
        });
        return String.join("\n", lines);
    }
}
