package io.inferbench.sweep;

import io.inferbench.workload.Workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The texts a sweep's cells hand a session that reads text itself (a user's target, {@code -Dbench.text}): for each
 * sequence length of the plan, texts of the workload whose token length falls in that bucket (above the length before
 * it, up to it), drawn with the run's seed; a bucket no text falls in takes the texts that fit it, and failing those the
 * shortest. A cell of batch B takes the bucket's first B texts, cycling when the bucket has fewer: the same texts in every
 * fork, so forks measure the same work.
 */
public final class CellTexts {
    private CellTexts() {
    }

    /** Each length's texts, at most {@code perBucket} of them; empty when the workload has no text. */
    public static Map<Integer, List<String>> of(Workload workload, List<Integer> seqLens, int perBucket, long seed) {
        Map<Integer, List<String>> texts = new LinkedHashMap<>();
        if (workload == null || !workload.hasText()) {
            return texts;
        }
        List<Integer> sorted = seqLens.stream().sorted().distinct().toList();
        int[] lengths = workload.lengths();
        for (int b = 0; b < sorted.size(); b++) {
            int low = b == 0 ? 0 : sorted.get(b - 1);
            int high = sorted.get(b);
            List<Integer> inBucket = new ArrayList<>();
            List<Integer> fitting = new ArrayList<>();
            for (int i = 0; i < lengths.length; i++) {
                if (lengths[i] <= high) {
                    fitting.add(i);
                    if (lengths[i] > low) {
                        inBucket.add(i);
                    }
                }
            }
            List<Integer> pool = !inBucket.isEmpty() ? inBucket : !fitting.isEmpty() ? fitting : shortest(lengths, perBucket);
            Collections.shuffle(pool, new Random(seed * 31 + high));
            texts.put(high, pool.subList(0, Math.min(perBucket, pool.size())).stream().map(i -> workload.texts().get(i)).toList());
        }
        return texts;
    }

    /** A cell's rows: the bucket's first {@code batch} texts, cycling through them when there are fewer. */
    static List<String> rows(List<String> bucket, int batch) {
        List<String> rows = new ArrayList<>(batch);
        for (int i = 0; i < batch; i++) {
            rows.add(bucket.get(i % bucket.size()));
        }
        return rows;
    }

    private static List<Integer> shortest(int[] lengths, int count) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < lengths.length; i++) {
            all.add(i);
        }
        all.sort((a, b) -> Integer.compare(lengths[a], lengths[b]));
        return new ArrayList<>(all.subList(0, Math.min(count, all.size())));
    }
}
