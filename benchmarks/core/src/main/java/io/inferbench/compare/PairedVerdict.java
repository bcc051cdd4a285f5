package io.inferbench.compare;

import com.fasterxml.jackson.annotation.JsonValue;

/** What the pairs of an A/B run say about one percentile of one cell ({@link PairedChange}). */
public enum PairedVerdict {
    /** B is slower: the interval of the change lies wholly above the floor ({@link PairedChange#floorPercent}). */
    SLOWER("slower"),
    /** B is faster: the interval lies wholly below minus the floor. */
    FASTER("faster"),
    /**
     * No change worth naming: the interval lies inside ± the threshold and reaches the floor or past it toward 0 (it
     * contains 0, or shows a change smaller than the floor).
     */
    WITHIN("within"),
    /** The pairs cannot say: the interval reaches the floor and past the threshold, or there is none yet. */
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
