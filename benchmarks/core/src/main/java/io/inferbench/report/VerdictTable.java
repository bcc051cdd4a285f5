package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.SeriesFit;

import java.io.PrintStream;

/** The console's verdict table: one row per (backend, device, model, seqLen) series, then each verdict's reason. */
public final class VerdictTable {
    private VerdictTable() {
    }

    public static void print(Analysis analysis, PrintStream out) {
        out.println();
        out.println("Batch scaling of p50 (least squares over batch sizes; rho = marginal cost / per-sample cost at the smallest batch)");
        out.println(Text.f("%-12s %-7s %-10s %5s  %-25s %9s %12s %5s %6s  %s",
                "backend", "device", "model", "seq", "regime", "fixed ms", "ms/sample", "knee", "R2", "advice"));
        for (SeriesFit f : analysis.fits()) {
            out.println(Text.f("%-12s %-7s %-10s %5s  %-25s %9s %12s %5s %6s  %s",
                    f.backend(), f.device(), Text.shortModelName(f.model()), Text.seqValue(f.seqLen()), f.verdictLabel(), Text.number(f.fixedCostMs()),
                    Text.number(f.marginalCostMsPerSample()), f.kneeBatch() == null ? "-" : f.kneeBatch().toString(),
                    Text.number(f.p50Fit() == null ? null : f.p50Fit().rSquared()), f.regime().shortAdvice()));
        }
        for (SeriesFit f : analysis.fits()) {
            out.println("  " + Text.seq(f.seqLen()) + " (" + f.backend() + ", " + f.device() + ", " + Text.shortModelName(f.model()) + "): "
                    + f.verdictLabel() + ": " + f.reason());
        }
    }
}
