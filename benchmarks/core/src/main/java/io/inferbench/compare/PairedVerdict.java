package io.inferbench.compare;

import com.fasterxml.jackson.annotation.JsonValue;

/** What the pairs of an A/B run say about one percentile of one cell ({@link PairedChange}). */
public enum PairedVerdict {
    /** B is slower: the interval of the change lies wholly above 0. */
    SLOWER("slower"),
    /** B is faster: the interval lies wholly below 0. */
    FASTER("faster"),
    /** No change worth naming: the interval contains 0 and lies inside ± the threshold. */
    WITHIN("within"),
    /** The pairs cannot say: the interval contains 0 and reaches past the threshold, or there is none yet. */
    UNRESOLVED("unresolved");

    private final String label;

    PairedVerdict(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }
}
