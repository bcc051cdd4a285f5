package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.AblationResult;

import java.util.ArrayList;
import java.util.List;

/** The console's lines for an ablation: each part's latency, then each replaced part's cost beside its stages. */
public final class AblationTable {
    private AblationTable() {
    }

    /** The no-op engine's latency in its parts: what the harness itself adds to a request. */
    public static String harness(AblationResult.Harness h) {
        return Text.f("the harness alone (no-op engine) costs %.4f ms per request at the mean (hand-off to the worker, "
                        + "host inputs, outputs' split); with the load generator's lateness (%.4f ms), the wait for the worker "
                        + "(%.4f ms)%s, the no-op's latency from intended send is %.4f ms at the mean, p99 %.3f ms",
                h.pathMeanMs(), h.generatorLagMeanMs(), h.queueMeanMs(),
                h.tokenizeMeanMs() == null ? "" : Text.f(" and tokenizing (%.4f ms)", h.tokenizeMeanMs()), h.meanMs(),
                h.p99Ms());
    }

    public static List<String> lines(AblationResult ablation) {
        List<String> lines = new ArrayList<>();
        if (!ablation.parts().isEmpty()) {
            lines.add(Text.f("[inferbench]   %-16s %9s %9s %9s %9s %8s", "part", "mean ms", "p50 ms", "p99 ms", "max ms",
                    "failed"));
            for (AblationResult.Part p : ablation.parts()) {
                lines.add(Text.f("[inferbench]   %-16s %9s %9s %9s %9s %8d", p.name(), Text.number(p.meanMs(), 4),
                        Text.number(p.p50Ms(), 4), Text.number(p.p99Ms(), 4), Text.number(p.maxMs(), 3),
                        p.failed()));
            }
        }
        if (ablation.harness() != null) {
            lines.add("[inferbench] ablation: " + harness(ablation.harness()));
        }
        for (AblationResult.Cost c : ablation.costs()) {
            lines.add(Text.f("[inferbench] ablation: %s%s", c.reading(), !c.resolved() ? " [NOT RESOLVED]"
                    : c.agree() ? "" : " [DISAGREE]"));
        }
        ablation.skipped().forEach(s -> lines.add("[inferbench] ablation skipped " + s));
        return lines;
    }
}
