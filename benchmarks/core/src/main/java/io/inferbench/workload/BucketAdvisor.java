package io.inferbench.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntToDoubleFunction;

/**
 * Bucket boundaries that minimise the expected latency per request: each request is padded to the upper bound of its
 * bucket and costs {@code cost(bound)}, so with the lengths sorted, an optimal bucket always ends at one of them, and
 * dynamic programming over the distinct lengths finds the best K buckets exactly:
 * {@code best[k][j] = min over i < j of best[k-1][i] + count(i+1..j) * cost(length[j])}, in O(K m^2) for m distinct
 * lengths. The last bucket always ends at the longest length, so every request fits.
 */
public final class BucketAdvisor {
    private BucketAdvisor() {
    }

    /** The best boundaries for {@code buckets} buckets (fewer when there are fewer distinct lengths) and their expected cost. */
    public record Choice(List<Integer> boundaries, double expectedCost) {
    }

    /**
     * @param lengths the requests' lengths (any order)
     * @param cost    the cost of a request padded to a length, e.g. its latency in ms
     */
    public static Choice best(int[] lengths, int buckets, IntToDoubleFunction cost) {
        int[] sorted = lengths.clone();
        Arrays.sort(sorted);
        List<Integer> distinct = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        for (int length : sorted) {
            if (!distinct.isEmpty() && distinct.get(distinct.size() - 1) == length) {
                counts.set(counts.size() - 1, counts.get(counts.size() - 1) + 1);
            } else {
                distinct.add(length);
                counts.add(1L);
            }
        }
        int m = distinct.size();
        int k = Math.min(buckets, m);
        long[] prefix = new long[m + 1];
        double[] costAt = new double[m];
        for (int j = 0; j < m; j++) {
            prefix[j + 1] = prefix[j] + counts.get(j);
            costAt[j] = cost.applyAsDouble(distinct.get(j));
        }
        double[][] best = new double[k + 1][m + 1];
        int[][] cut = new int[k + 1][m + 1];
        for (double[] row : best) {
            Arrays.fill(row, Double.POSITIVE_INFINITY);
        }
        best[0][0] = 0;
        for (int b = 1; b <= k; b++) {
            for (int j = 1; j <= m; j++) {
                for (int i = b - 1; i < j; i++) {
                    if (best[b - 1][i] == Double.POSITIVE_INFINITY) {
                        continue;
                    }
                    double total = best[b - 1][i] + (prefix[j] - prefix[i]) * costAt[j - 1];
                    if (total < best[b][j]) {
                        best[b][j] = total;
                        cut[b][j] = i;
                    }
                }
            }
        }
        List<Integer> boundaries = new ArrayList<>();
        int j = m;
        for (int b = k; b >= 1; b--) {
            boundaries.add(0, distinct.get(j - 1));
            j = cut[b][j];
        }
        return new Choice(List.copyOf(boundaries), best[k][m] / prefix[m]);
    }

    /** The expected cost per request of given buckets (sorted upper bounds; longer requests go in the last). */
    public static double expectedCost(int[] lengths, List<Integer> buckets, IntToDoubleFunction cost) {
        double total = 0;
        for (int length : lengths) {
            total += cost.applyAsDouble(bucketOf(length, buckets));
        }
        return total / lengths.length;
    }

    /** The smallest bucket that holds {@code length}, or the largest when none does (the request is truncated). */
    public static int bucketOf(int length, List<Integer> buckets) {
        for (int bucket : buckets) {
            if (length <= bucket) {
                return bucket;
            }
        }
        return buckets.get(buckets.size() - 1);
    }
}
