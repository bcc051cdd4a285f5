package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.AgreementResult;

/** report.md's agreement section: per model, engine and device, a row per (seq, batch) with speed-ups and figures. */
public final class AgreementReport {
    private AgreementReport() {
    }

    public static void section(Markdown md, AgreementResult agreement) {
        if (agreement == null) {
            return;
        }
        md.line("## Against the reference: speed-up and output agreement").blank();
        md.line("Reference: **" + Markdown.escape(agreement.reference()) + "**. " + Markdown.escape(agreement.method()) + ".").blank();
        for (AgreementResult.Pair pair : agreement.pairs()) {
            md.line("### " + Markdown.escape(Text.shortModelName(pair.model())) + " | " + pair.backend() + " | " + pair.device())
                    .blank();
            if (pair.refusal() != null) {
                md.line("Not compared: " + Markdown.escape(pair.refusal()) + ".").blank();
                continue;
            }
            md.line("Output compared: `" + Markdown.escape(pair.output()) + "`" + (pair.classifier() ? " (a classifier: top-1 counted)"
                    : " (not a classifier: no top-1)") + ".").blank();
            md.header(new String[] {"seq", "batch", "reference p50 (ms)", "model p50 (ms)", "speed-up p50", "speed-up p99", "rows",
                "max abs error", "max rel error", "min cosine", "mean cosine", "top-1 agreement", "verdict"},
                    true, true, true, true, true, true, true, true, true, true, true, true, false);
            for (AgreementResult.ShapeAgreement s : pair.shapes()) {
                md.row(Text.seqValue(s.seqLen()), Integer.toString(s.batch()), opt(s.referenceP50Ms(), "%.3f"),
                        opt(s.modelP50Ms(), "%.3f"), opt(s.speedupP50(), "%.2fx"), opt(s.speedupP99(), "%.2fx"),
                        Integer.toString(s.rows()), Text.f("%.3g", s.maxAbsError()), Text.f("%.2f%%", 100 * s.maxRelError()),
                        Text.f("%.6f", s.minCosine()), Text.f("%.6f", s.meanCosine()),
                        s.top1Agreement() == null ? "n/a" : Text.f("%.1f%%", 100 * s.top1Agreement()),
                        s.agrees() ? "agrees" : "**DIFFERS**");
            }
            md.blank();
        }
    }

    private static String opt(Double value, String format) {
        return value == null ? "-" : Text.f(format, value);
    }
}
