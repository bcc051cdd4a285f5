package io.inferbench.compare;

/**
 * An A/B run's options ({@link AbSetting}).
 *
 * @param baseline         A: a model, or a class path with a target, as given
 * @param thresholdPercent the change that is a regression
 * @param confidenceLevel  simultaneous over every interval
 * @param maxMinutes       the pairs' time cap
 * @param maxPairs         the most pairs
 * @param resolutionPercent the half-width a cell's p50 interval needs before {@code within} stops its pairs
 */
public record AbOptions(String baseline, double thresholdPercent, double confidenceLevel, double maxMinutes, int maxPairs,
                        double resolutionPercent) {
}
