package io.inferbench.report;

import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.SeriesFit;

import java.io.PrintStream;
import java.util.Locale;

/** The console's verdict table: one row per (backend, device, model, seqLen) series. */
public final class VerdictTable {
    private VerdictTable() {
    }

    public static void print(Analysis analysis, PrintStream out) {
        out.println();
        out.println("Batch scaling of p50 (least squares over batch sizes; rho = marginal cost / per-sample cost at the smallest batch)");
        out.println(String.format(Locale.ROOT, "%-12s %-7s %-10s %5s  %-13s %9s %12s %5s %6s  %s",
                "backend", "device", "model", "seq", "regime", "fixed ms", "ms/sample", "knee", "R2", "advice"));
        for (SeriesFit f : analysis.fits()) {
            out.println(String.format(Locale.ROOT, "%-12s %-7s %-10s %5d  %-13s %9s %12s %5s %6s  %s",
                    f.backend(), f.device(), shortName(f.model()), f.seqLen(), f.regime().label(), number(f.fixedCostMs()),
                    number(f.marginalCostMsPerSample()), f.kneeBatch() == null ? "-" : f.kneeBatch().toString(),
                    number(f.p50Fit() == null ? null : f.p50Fit().rSquared()), f.regime().shortAdvice()));
        }
        for (SeriesFit f : analysis.fits()) {
            out.println("  seq " + f.seqLen() + " (" + f.backend() + ", " + f.device() + ", " + shortName(f.model()) + "): "
                    + f.regime().label() + ": " + f.reason());
        }
    }

    /** Three decimals, or "n/a" for a figure that could not be computed. */
    static String number(Double value) {
        return value == null ? "n/a" : String.format(Locale.ROOT, "%.3f", value);
    }

    /** A model path shortened to its file name, for narrow columns. */
    static String shortName(String model) {
        int slash = Math.max(model.lastIndexOf('/'), model.lastIndexOf('\\'));
        return slash >= 0 ? model.substring(slash + 1) : model;
    }
}
