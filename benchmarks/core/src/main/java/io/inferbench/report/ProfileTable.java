package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.CellProfile;
import io.inferbench.results.ProfileResult;

import java.io.PrintStream;

/** The console's roofline lines: per series, the roofline class at each batch next to the slope's verdict. */
public final class ProfileTable {
    private ProfileTable() {
    }

    public static void print(ProfileResult profile, PrintStream out) {
        if (profile.crossChecks().isEmpty()) {
            return;
        }
        out.println();
        out.println("Roofline per series: class at the smallest and largest batch (share of the measured FLOP roof / memory roof); report.md explains each");
        for (ProfileResult.CrossCheck check : profile.crossChecks()) {
            var cells = profile.cells().stream().filter(c -> c.backend().equals(check.backend()) && c.device().equals(check.device())
                    && c.model().equals(check.model()) && c.seqLen() == check.seqLen()).toList();
            var first = cells.get(0);
            var last = cells.get(cells.size() - 1);
            out.println(Text.f("%-12s %-7s %-10s %5s  slope %-26s roofline %s -> %s", check.backend(), check.device(),
                    Text.shortModelName(check.model()), Text.seqValue(check.seqLen()), check.slopeVerdict(),
                    describe(first), describe(last)));
        }
    }

    private static String describe(CellProfile c) {
        return "b" + c.batch() + " " + c.rooflineClass() + (c.flopsPercentOfPeak() == null ? ""
                : Text.f(" (%.0f%% / %.0f%%)", c.flopsPercentOfPeak(), c.bytesPercentOfPeak()));
    }

}
