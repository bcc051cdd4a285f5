package io.inferbench.compare;

import io.inferbench.analysis.RegimeSetting;
import io.inferbench.option.Option;
import io.inferbench.option.PropertyValues;

import java.util.Properties;

/**
 * {@code compare}'s settings: what counts as a regression and how sure it must be. Owned here, beside what reads them
 * ({@link #read}).
 */
public enum CompareSetting implements Option.Defined {
    COMPARE_THRESHOLD("compare.threshold", "5", "a change smaller than this, in percent, is never a regression"),
    COMPARE_CONFIDENCE("compare.confidence", "0.95", "simultaneous confidence of all a comparison's intervals together"),
    COMPARE_RESAMPLES("compare.resamples", "10000", "bootstrap replicates, where a bootstrap is used (single-fork runs, forced)"),
    COMPARE_GATE("compare.gate", "p50", "what a cell must rule a regression out at to pass: `p50` or `p50,p99`; a cell "
            + "whose interval reaches past the threshold, or that has none, is `undecided` (exit code 4). A regression at p99 "
            + "fails either way"),
    COMPARE_FORCE("compare.force", "false", "compare runs that were not measured with the same ruler; the report then opens "
            + "with a warning"),
    COMPARE_CODE_CHANGE("compare.codeChange", "false", "a target's code (`bench.target`) may differ between the runs: it is "
            + "the change under test, as in a pull request's gate; without it, other code is another ruler (docs/targets.md)");

    private final Option.Definition definition;

    CompareSetting(String property, String defaultValue, String meaning) {
        this.definition = new Option.Definition(property, defaultValue, meaning);
    }

    @Override
    public Option.Definition definition() {
        return definition;
    }

    public static CompareOptions read(Properties p) {
        return new CompareOptions(PropertyValues.parseDouble(COMPARE_THRESHOLD, p), PropertyValues.parseDouble(COMPARE_CONFIDENCE, p),
                PropertyValues.positiveInt(COMPARE_RESAMPLES, p), PropertyValues.bool(COMPARE_FORCE, p), RegimeSetting.defaults(),
                PropertyValues.bool(COMPARE_CODE_CHANGE, p), GateDecision.gatesP99(COMPARE_GATE.value(p), COMPARE_GATE.property()));
    }
}
