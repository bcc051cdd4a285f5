package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.AgreementResult;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The console's agreement lines: per model, engine, device and sequence length, the speed-up over the reference at each
 * batch size, then the worst agreement figures over those batches and whether every shape agrees.
 */
public final class AgreementTable {
    private AgreementTable() {
    }

    public static void print(AgreementResult agreement, PrintStream out) {
        out.println();
        out.println(Text.f("Against the reference %s: speed-up (reference p50 / model p50) by batch, and output agreement on %d "
                + "seeded batches per shape (worst over the batches)", Text.shortModelName(agreement.reference()),
                agreement.inputsPerShape()));
        TreeSet<Integer> batches = agreement.pairs().stream().flatMap(p -> p.shapes().stream())
                .map(AgreementResult.ShapeAgreement::batch).collect(Collectors.toCollection(TreeSet::new));
        out.println(Text.f("%-12s %-12s %-7s %5s | %s | %-10s %-8s %-10s %-7s %s", "model", "backend", "device", "seq",
                batches.stream().map(b -> Text.f("%6s", "b" + b)).collect(Collectors.joining(" ")), "max abs", "max rel",
                "min cos", "top-1", "verdict"));
        for (AgreementResult.Pair pair : agreement.pairs()) {
            if (pair.refusal() != null) {
                out.println(Text.f("%-12s %-12s %-7s not compared: %s", Text.shortModelName(pair.model()), pair.backend(),
                        pair.device(), pair.refusal()));
                continue;
            }
            Map<Integer, List<AgreementResult.ShapeAgreement>> bySeq = new TreeMap<>(pair.shapes().stream()
                    .collect(Collectors.groupingBy(AgreementResult.ShapeAgreement::seqLen)));
            bySeq.forEach((seq, shapes) -> out.println(line(pair, seq, shapes, batches)));
        }
    }

    static String line(AgreementResult.Pair pair, int seq, List<AgreementResult.ShapeAgreement> shapes, TreeSet<Integer> batches) {
        Map<Integer, AgreementResult.ShapeAgreement> byBatch = shapes.stream()
                .collect(Collectors.toMap(AgreementResult.ShapeAgreement::batch, s -> s));
        String speedups = batches.stream().map(b -> {
            AgreementResult.ShapeAgreement s = byBatch.get(b);
            return Text.f("%6s", s == null || s.speedupP50() == null ? "-" : Text.f("%.2fx", s.speedupP50()));
        }).collect(Collectors.joining(" "));
        double maxAbs = shapes.stream().mapToDouble(AgreementResult.ShapeAgreement::maxAbsError).max().orElse(0);
        double maxRel = shapes.stream().mapToDouble(AgreementResult.ShapeAgreement::maxRelError).max().orElse(0);
        double minCos = shapes.stream().mapToDouble(AgreementResult.ShapeAgreement::minCosine).min().orElse(1);
        String top1 = shapes.stream().filter(s -> s.top1Agreement() != null).mapToDouble(AgreementResult.ShapeAgreement::top1Agreement)
                .min().stream().mapToObj(v -> Text.f("%.1f%%", 100 * v)).findFirst().orElse("n/a");
        long differ = shapes.stream().filter(s -> !s.agrees()).count();
        return Text.f("%-12s %-12s %-7s %5s | %s | %-10s %-8s %-10s %-7s %s", Text.shortModelName(pair.model()), pair.backend(),
                pair.device(), Text.seqValue(seq), speedups, Text.f("%.3g", maxAbs), Text.f("%.2f%%", 100 * maxRel), Text.f("%.6f", minCos), top1,
                differ == 0 ? "agrees" : "DIFFERS at " + differ + " of " + shapes.size() + " shapes");
    }
}
