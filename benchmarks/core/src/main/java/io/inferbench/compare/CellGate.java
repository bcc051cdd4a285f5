package io.inferbench.compare;

/**
 * What the gate concludes about one compared cell ({@link GateDecision}), and why.
 *
 * @param reason       why, in a line: the interval that rules a regression out or shows one, or what leaves it undecided
 * @param moreToDecide for an undecided cell, about how many more pairs (an A/B run) would decide it, from how its
 *                     interval narrows with the pairs (the half-width falls as one over the root of their count); null
 *                     when decided, failed, or not within reach (a change this close to the threshold, doubted data, or
 *                     two runs compared, whose forks are fixed)
 */
public record CellGate(GateDecision decision, String reason, Integer moreToDecide) {
}
