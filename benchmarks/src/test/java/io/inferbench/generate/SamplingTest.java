package io.inferbench.generate;

import io.inferbench.BenchmarkException;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pick: greedy as before, sampling against the softmax computed here by hand, its filters and its refusals. */
class SamplingTest {
    /** Two rows of 6 logits, the second row's largest at index 1. */
    private static final float[] LOGITS = {0.5f, 2.0f, 1.0f, -1.0f, 1.5f, 0.0f, 3.0f, 4.0f, 0.0f, 0.0f, 1.0f, 2.0f};

    @Test
    void greedyIsTheLargestLogitAndTopKOneIsGreedy() {
        long[] tokens = new long[2];
        Sampling.GREEDY.picker(1).pick(LOGITS, 2, 6, tokens);
        assertArrayEquals(new long[] {1, 1}, tokens);
        Sampling.parse("temperature=5,topK=1").picker(1).pick(LOGITS, 2, 6, tokens);
        assertArrayEquals(new long[] {1, 1}, tokens, "keeping one logit leaves nothing to draw");
        assertEquals(Sampling.GREEDY, Sampling.parse("greedy"));
        assertEquals("temperature=0.8,topK=50,topP=0.95", Sampling.parse("temperature=0.8,topK=50,topP=0.95").describe());
    }

    @Test
    void samplingDrawsTheSoftmaxOverTheTemperature() {
        double temperature = 0.7;
        float[] row = {0.5f, 2.0f, 1.0f, -1.0f, 1.5f, 0.0f};
        double[] expected = new double[row.length];
        double sum = 0;
        for (int i = 0; i < row.length; i++) {
            expected[i] = Math.exp(row[i] / temperature);
            sum += expected[i];
        }
        Sampling.Picker picker = Sampling.parse("temperature=0.7").picker(11);
        int draws = 200_000;
        int[] counts = new int[row.length];
        long[] token = new long[1];
        for (int i = 0; i < draws; i++) {
            picker.pick(row, 1, row.length, token);
            counts[(int) token[0]]++;
        }
        for (int i = 0; i < row.length; i++) {
            double p = expected[i] / sum;
            double se = Math.sqrt(p * (1 - p) / draws);
            assertEquals(p, counts[i] / (double) draws, 5 * se, "token " + i);
        }
    }

    @Test
    void topKAndTopPKeepOnlyTheirTokens() {
        float[] row = {0.5f, 2.0f, 1.0f, -1.0f, 1.5f, 0.0f};
        long[] token = new long[1];
        Sampling.Picker topK = Sampling.parse("topK=2").picker(3);
        Sampling.Picker topP = Sampling.parse("topP=0.6").picker(3);
        // softmax at temperature 1: 2.0 -> 0.38, 1.5 -> 0.23, 1.0 -> 0.14: the nucleus of 0.6 is {1, 4} (0.61 with 4)
        boolean[] seenK = new boolean[row.length];
        boolean[] seenP = new boolean[row.length];
        for (int i = 0; i < 5000; i++) {
            topK.pick(row, 1, row.length, token);
            seenK[(int) token[0]] = true;
            topP.pick(row, 1, row.length, token);
            seenP[(int) token[0]] = true;
        }
        assertArrayEquals(new boolean[] {false, true, false, false, true, false}, seenK);
        assertArrayEquals(new boolean[] {false, true, false, false, true, false}, seenP);
    }

    @Test
    void aResetRepeatsTheDraws() {
        float[] logits = new float[8 * 1000];
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < logits.length; i++) {
            logits[i] = (float) random.nextGaussian();
        }
        Sampling.Picker picker = Sampling.parse("temperature=1.2,topP=0.9").picker(42);
        long[] first = new long[8];
        long[] again = new long[8];
        picker.pick(logits, 8, 1000, first);
        picker.reset();
        picker.pick(logits, 8, 1000, again);
        assertArrayEquals(first, again);
    }

    @Test
    void settingsOutOfRangeAreRefusedWithTheRange() {
        for (String[] bad : new String[][] {{"temperature=0", "must be above 0"}, {"topK=-1", "must be 1 or more"},
                {"topP=1.5", "must be in (0, 1]"}, {"topP=0", "must be in (0, 1]"}, {"beam=4", "'beam' is not a sampling setting"},
                {"temperature=hot", "is not a number"}, {"topK", "is not KEY=VALUE"}}) {
            BenchmarkException e = assertThrows(BenchmarkException.class, () -> Sampling.parse(bad[0]), bad[0]);
            assertTrue(e.getMessage().contains(bad[1]) && e.getMessage().contains("-Dbench.sampling="), e.getMessage());
        }
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> Sampling.parse("topK=7").picker(1).pick(LOGITS, 2, 6, new long[2]));
        assertTrue(e.getMessage().contains("topK=7 is more than the model's vocabulary (6 logits"), e.getMessage());
    }
}
