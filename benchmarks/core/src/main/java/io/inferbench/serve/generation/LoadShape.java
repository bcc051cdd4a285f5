package io.inferbench.serve.generation;

import io.inferbench.BenchmarkException;

import java.util.List;
import java.util.SplittableRandom;

/**
 * What each generation request asks for: a prompt length drawn from {@code promptLengths} and a number of new tokens
 * in {@code [minNewTokens, maxNewTokens]}, uniformly, from the request's own seed, so a rerun sends the same requests.
 */
public record LoadShape(List<Integer> promptLengths, int minNewTokens, int maxNewTokens) {
    public LoadShape {
        promptLengths = List.copyOf(promptLengths);
        if (promptLengths.isEmpty() || promptLengths.stream().anyMatch(l -> l < 1)) {
            throw new BenchmarkException("generation under load needs prompt lengths of 1 or more (-Dbench.seq), got "
                    + promptLengths);
        }
        if (minNewTokens < 1 || maxNewTokens < minNewTokens) {
            throw new BenchmarkException("-Dbench.generate=" + minNewTokens + "-" + maxNewTokens + " is an empty range of "
                    + "new tokens: give N, or MIN-MAX with 1 <= MIN <= MAX, e.g. 16-64");
        }
    }

    /** {@code N} or {@code MIN-MAX}, as {@code -Dbench.generate} takes it. */
    public String newTokensLabel() {
        return minNewTokens == maxNewTokens ? Integer.toString(maxNewTokens) : minNewTokens + "-" + maxNewTokens;
    }

    /** Request {@code index}'s prompt length and new tokens, from {@code seed}. */
    int[] draw(long seed, int index) {
        SplittableRandom random = new SplittableRandom(seed * 1_000_003L + index);
        int prompt = promptLengths.get(random.nextInt(promptLengths.size()));
        int tokens = minNewTokens + random.nextInt(maxNewTokens - minNewTokens + 1);
        return new int[] {prompt, tokens};
    }

    /** A prompt's ids, drawn from [0, {@code vocabBound}) from the request's seed. */
    static long[] promptIds(long seed, int index, int length, int vocabBound) {
        SplittableRandom random = new SplittableRandom(seed * 7_919L + index * 131L + 17);
        long[] ids = new long[length];
        for (int i = 0; i < length; i++) {
            ids[i] = random.nextInt(vocabBound);
        }
        return ids;
    }
}
