package io.inferbench.precision;

import io.inferbench.BenchmarkException;
import io.inferbench.option.Option;
import io.inferbench.option.PropertyValues;

import java.util.Properties;

/**
 * The precision check's settings: the reference model and how the others' outputs are held to it. Owned here, beside
 * what reads them ({@link #read}; which model the reference is, is checked with the run's models by the run's settings).
 */
public enum AgreementSetting implements Option.Defined {
    REFERENCE("bench.reference", "", "one of `bench.model`: after the sweep, every other model's outputs are compared with "
            + "its outputs on the same seeded inputs at every shape, beside their speed-up over it"),
    AGREEMENT_INPUTS("bench.agreement.inputs", "16", "output agreement: seeded input batches per (seq, batch) shape"),
    AGREEMENT_MIN_COSINE("bench.agreement.minCosine", "0.99", "output agreement: the lowest cosine similarity of any row that "
            + "still agrees"),
    AGREEMENT_MIN_TOP1("bench.agreement.minTop1", "0.99", "output agreement: the lowest share of rows with the same top-1 "
            + "class that still agrees (classifier outputs)");

    private final Option.Definition definition;

    AgreementSetting(String property, String defaultValue, String meaning) {
        this.definition = new Option.Definition(property, defaultValue, meaning);
    }

    @Override
    public Option.Definition definition() {
        return definition;
    }

    /** {@code bench.agreement.*}: how outputs are compared with the reference's. */
    public static AgreementOptions read(Properties p) {
        double minCosine = PropertyValues.parseDouble(AGREEMENT_MIN_COSINE, p);
        double minTop1 = PropertyValues.parseDouble(AGREEMENT_MIN_TOP1, p);
        if (minCosine < -1 || minCosine > 1) {
            throw new BenchmarkException("-D" + AGREEMENT_MIN_COSINE.property() + " must be between -1 and 1, got "
                    + minCosine);
        }
        if (minTop1 < 0 || minTop1 > 1) {
            throw new BenchmarkException("-D" + AGREEMENT_MIN_TOP1.property() + " is a share of rows, between 0 and 1; got "
                    + minTop1);
        }
        return new AgreementOptions(PropertyValues.positiveInt(AGREEMENT_INPUTS, p), minCosine, minTop1);
    }
}
