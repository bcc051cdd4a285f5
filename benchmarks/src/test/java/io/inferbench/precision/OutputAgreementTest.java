package io.inferbench.precision;

import io.inferbench.engine.OutputSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agreement figures against values worked out by hand, and the output-matching rule. */
class OutputAgreementTest {
    @Test
    void figuresMatchAHandComputation() {
        OutputAgreement a = new OutputAgreement(true);
        // rows: reference (1, 0) vs (1, 0.1); reference (0, 2) vs (0.5, 2); then (3, 1) vs (1, 3), whose top-1 flips.
        a.add(new float[] {1, 0, 0, 2}, new float[] {1, 0.1f, 0.5f, 2}, 2);
        a.add(new float[] {3, 1}, new float[] {1, 3}, 1);
        OutputAgreement.Stats s = a.stats();
        assertEquals(3, s.rows());
        assertEquals(2, s.valuesPerRow());
        assertEquals(2.0, s.maxAbsError(), 1e-6, "|1 - 3| in the last row");
        assertEquals(2.0 / 3.0, s.maxRelError(), 1e-6, "row maxima 0.1/1, 0.5/2, 2/3");
        double cos0 = 1 / Math.sqrt(1.01);
        double cos1 = 4 / (2 * Math.sqrt(4.25));
        double cos2 = 6.0 / 10.0;
        assertEquals(cos2, s.minCosine(), 1e-6);
        assertEquals((cos0 + cos1 + cos2) / 3, s.meanCosine(), 1e-6);
        assertEquals(2.0 / 3.0, s.top1Agreement(), 1e-12);
    }

    @Test
    void identicalOutputsAgreeExactlyAndNonClassifiersHaveNoTop1() {
        OutputAgreement a = new OutputAgreement(false);
        float[] x = {0.25f, -1, 3, 0, 0, 0};
        a.add(x, x.clone(), 2);
        OutputAgreement.Stats s = a.stats();
        assertEquals(0, s.maxAbsError());
        assertEquals(0, s.maxRelError());
        assertEquals(1, s.minCosine(), 1e-12, "a zero row against itself counts as 1");
        assertNull(s.top1Agreement());
    }

    @Test
    void outputsOfDifferentSizesAreRefused() {
        OutputAgreement a = new OutputAgreement(true);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.add(new float[4], new float[6], 2));
        assertTrue(e.getMessage().contains("differ in size"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.add(new float[5], new float[5], 2), "5 values are not 2 rows");
    }

    private static OutputSpec spec(String name, String type, String... dims) {
        return new OutputSpec(name, type, List.of(dims), true);
    }

    @Test
    void outputsMustMatchInNameTypeAndFixedDimensions() {
        List<OutputSpec> logits = List.of(spec("logits", "float", "batch", "2"));
        assertNull(OutputMatch.refusal(logits, List.of(spec("logits", "float", "batch_size", "2"))), "symbolic dims match");
        assertTrue(OutputMatch.refusal(logits, List.of(spec("scores", "float", "batch", "2"))).contains("differ in name"));
        assertTrue(OutputMatch.refusal(logits, List.of(spec("logits", "float", "batch", "3"))).contains("differ in shape"));
        assertTrue(OutputMatch.refusal(logits, List.of(spec("logits", "float", "batch", "2", "1"))).contains("differ in shape"));
        assertTrue(OutputMatch.refusal(logits, List.of(spec("logits", "float16", "batch", "2"))).contains("must be float"));
        assertNull(OutputMatch.refusal(logits, List.of(new OutputSpec("output 0", "float", List.of(), false))),
                "an undeclared TorchScript output is compared by size at run time");
        assertTrue(OutputMatch.classifier(logits.get(0)));
        assertFalse(OutputMatch.classifier(spec("hidden", "float", "batch", "seq", "128")));
        assertFalse(OutputMatch.classifier(spec("score", "float", "batch", "1")));
    }
}
