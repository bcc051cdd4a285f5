package io.inferbench.compare;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The interval arithmetic of {@link PercentileChange} against values computed once by trusted implementations, on
 * the same made-up fork log-percentiles:
 *
 * <pre>
 * R 4.2.2:      x &lt;- c(-0.1053605156578263, 0.0392207131532813, 0.0861776962410524)
 *               y &lt;- c(0.1823215567939546, 0.2623642644674911, 0.1133286853070032, 0.3364722366212129)
 *               t.test(y, x, var.equal = FALSE, conf.level = 0.95)   # and 0.999: $conf.int, $parameter
 *               anova(lm(v ~ f))["Residuals", c("Mean Sq", "Df")]   # groups below, for the pooled variance
 * SciPy 1.10.1: scipy.stats.t.ppf with the Welch-Satterthwaite df; the same bounds to 1e-15
 * </pre>
 */
class WelchReferenceTest {
    static final double[] X = {-0.1053605156578263, 0.0392207131532813, 0.0861776962410524};
    static final double[] Y = {0.1823215567939546, 0.2623642644674911, 0.1133286853070032, 0.3364722366212129};
    /** R: mean(y) - mean(x). */
    static final double DIFFERENCE = 0.21694238788524631;
    /** R: t.test(...)$parameter, Welch-Satterthwaite. */
    static final double WELCH_DF = 4.3671644047424172;

    @Test
    void sampleVariancesAgreeWithR() {
        PercentileChange.ForkSpread x = PercentileChange.pool(List.of(X));
        PercentileChange.ForkSpread y = PercentileChange.pool(List.of(Y));
        assertEquals(0.0099659294337758036, x.variance(), 1e-15);
        assertEquals(2, x.degreesOfFreedom());
        assertEquals(0.0093688269453740258, y.variance(), 1e-15);
        assertEquals(3, y.degreesOfFreedom());
    }

    @Test
    void welchIntervalAndDegreesOfFreedomAgreeWithRsTTest() {
        PercentileChange.ForkSpread x = PercentileChange.pool(List.of(X));
        PercentileChange.ForkSpread y = PercentileChange.pool(List.of(Y));

        PercentileChange.Interval at95 = PercentileChange.welchInterval(x, X.length, y, Y.length, DIFFERENCE, 0.95);
        assertEquals(0.014734358288481714, at95.low(), 1e-9);
        assertEquals(0.41915041748201093, at95.high(), 1e-9);
        assertEquals(WELCH_DF, at95.degreesOfFreedom(), 1e-12);

        PercentileChange.Interval at999 = PercentileChange.welchInterval(x, X.length, y, Y.length, DIFFERENCE, 0.999);
        assertEquals(-0.37130727398221458, at999.low(), 1e-9);
        assertEquals(0.80519204975270708, at999.high(), 1e-9);
    }

    @Test
    void pooledVarianceAgreesWithTheResidualMeanSquareOfAOneWayAnova() {
        PercentileChange.ForkSpread pooled = PercentileChange.pool(List.of(
                new double[] {0.01, 0.05, -0.02}, new double[] {0.11, 0.09}, new double[] {-0.04, 0.02, 0.00, 0.03}));
        assertEquals(0.00092361111111111105, pooled.variance(), 1e-15);
        assertEquals(6, pooled.degreesOfFreedom());
    }
}
