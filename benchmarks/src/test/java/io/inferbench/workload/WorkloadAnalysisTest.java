package io.inferbench.workload;

import io.inferbench.measure.ColdStart;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.results.CellResult;
import io.inferbench.results.CellStatus;
import io.inferbench.results.RunResult;
import io.inferbench.results.SampleRuns;
import io.inferbench.results.WorkloadResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bucketing, padding and the advisor, against direct computations on small hand-made distributions. */
class WorkloadAnalysisTest {
    private static final List<Integer> BUCKETS = List.of(8, 64, 128);

    /** A run whose batch-1 pass takes exactly seq / 64 ms at seq 8, 64 and 128, and twice that at batch 2. */
    static RunResult linearRun() {
        RunResult template = SampleRuns.sampleRun();
        List<CellResult> cells = new ArrayList<>();
        for (int batch : new int[] {1, 2}) {
            for (int seq : BUCKETS) {
                Histogram h = PassRecorder.newHistogram();
                for (int i = 0; i < 100; i++) {
                    h.recordValue(Math.round(seq / 64.0 * batch * 1e6));
                }
                LatencySummary l = LatencySummary.of(h);
                cells.add(new CellResult(CellStatus.OK, null, new CellResult.Identity("onnxruntime", "cpu", "tiny", "ab".repeat(32),
                        seq, batch), new CellResult.Counts(1, 10, 100), new CellResult.Latency(l, l, batch * 1000 / l.meanMs()),
                        List.of(new ColdStart(1, 1, 1)), new CellResult.Session("CPUExecutionProvider", 1, 1, "1.23.2",
                        "cpu build", "cpu", "pinned"), new CellResult.Histograms(HistogramCodec.encode(h), null), CellResult.ForkRecords.NONE));
            }
        }
        return template.withCells(cells, template.finishedAt());
    }

    private static Workload lengths(int... lengths) {
        return Workload.lengthsOnly("hand-made", "00", lengths, "none");
    }

    /**
     * Lengths 3, 5 | 10, 60 | 100, 120 in buckets 8, 64, 128: padded slots over all slots, per bucket and for the bucket
     * scheme, computed here by hand: (16 - 8) / 16, (128 - 70) / 128, (256 - 220) / 256, and (400 - 298) / 400.
     */
    @Test
    void paddingFractionsEqualADirectComputation() {
        WorkloadResult w = WorkloadAnalysis.analyze(lengths(3, 5, 10, 60, 100, 120), BUCKETS, null, null, linearRun(),
                List.of("onnxruntime"), List.of("cpu"), List.of("tiny"), 1);
        WorkloadResult.EngineWorkload e = w.engines().get(0);
        assertEquals(8.0 / 16, e.buckets().get(0).paddingFraction(), 1e-12);
        assertEquals(58.0 / 128, e.buckets().get(1).paddingFraction(), 1e-12);
        assertEquals(36.0 / 256, e.buckets().get(2).paddingFraction(), 1e-12);
        assertEquals(2.0 / 6, e.buckets().get(0).share(), 1e-12);
        assertEquals(35.0, e.buckets().get(1).meanTrueLength(), 1e-12);
        WorkloadResult.SchemeStats bucketScheme = e.schemes().get(1);
        assertEquals(102.0 / 400, bucketScheme.paddingFraction(), 1e-12);
        WorkloadResult.SchemeStats longest = e.schemes().get(0);
        assertEquals(1 - 298.0 / (6 * 128), longest.paddingFraction(), 1e-12);
        assertEquals(0.0, e.schemes().get(2).paddingFraction(), 1e-12, "exact length pads nothing");
        assertEquals(2.0, longest.meanLatencyMs(), 0.01, "every request at seq 128: 2 ms");
        assertTrue(bucketScheme.meanLatencyMs() < longest.meanLatencyMs());
    }

    @Test
    void lengthsBeyondTheModelMaximumOrTheLargestBucketAreTruncatedAndCounted() {
        WorkloadResult w = WorkloadAnalysis.analyze(lengths(3, 100, 150, 300), BUCKETS, null, 200, linearRun(),
                List.of("onnxruntime"), List.of("cpu"), List.of("tiny"), 1);
        assertEquals(1, w.truncatedToMax(), "300 > 200");
        assertEquals(2, w.beyondLargestBucket(), "150 and 200 > 128");
        assertEquals(200, w.lengthPercentilesTokens().get("max"));
        WorkloadResult.BucketStats last = w.engines().get(0).buckets().get(2);
        assertEquals(3, last.requests(), "100, and the two truncated to 128");
        assertEquals(0.0, w.engines().get(0).buckets().get(1).requests(), 1e-12);
    }

    /** Sorting by length within a window groups similar lengths, so batches carry less padding and run faster. */
    @Test
    void sortingWithinAWindowCutsPaddingAndRaisesThroughput() {
        Random random = new Random(12345);
        int[] mixed = new int[400];
        for (int i = 0; i < mixed.length; i++) {
            mixed[i] = random.nextBoolean() ? 5 + random.nextInt(3) : 100 + random.nextInt(28);
        }
        WorkloadResult w = WorkloadAnalysis.analyze(lengths(mixed), BUCKETS, null, null, linearRun(), List.of("onnxruntime"),
                List.of("cpu"), List.of("tiny"), 1);
        WorkloadResult.BatchingStats b = w.engines().get(0).lengthAwareBatching().get(0);
        assertEquals(2, b.batch());
        assertEquals(8, b.window());
        assertTrue(b.sortedPaddingFraction() < b.arrivalOrderPaddingFraction() / 2, b.toString());
        assertTrue(b.sortedRequestsPerSecond() > b.arrivalOrderRequestsPerSecond(), b.toString());
    }

    /** Two clusters, around 20-30 and 400-500 tokens: the best two buckets end at the top of each. */
    @Test
    void theAdvisorFindsTheBoundaryBetweenTwoClusters() {
        Random random = new Random(12345);
        int[] lengths = new int[2000];
        for (int i = 0; i < lengths.length; i++) {
            lengths[i] = i % 2 == 0 ? 20 + random.nextInt(11) : 400 + random.nextInt(101);
        }
        BucketAdvisor.Choice choice = BucketAdvisor.best(lengths, 2, seq -> seq);
        assertEquals(List.of(30, 500), choice.boundaries());
    }

    /** The dynamic programme against every possible choice of boundaries, on small random distributions. */
    @Test
    void theAdvisorMatchesABruteForceSearch() {
        Random random = new Random(777);
        for (int trial = 0; trial < 20; trial++) {
            int[] lengths = random.ints(60, 1, 40).toArray();
            int[] distinct = Arrays.stream(lengths).distinct().sorted().toArray();
            for (int k = 2; k <= 3; k++) {
                java.util.function.IntToDoubleFunction cost = seq -> Math.pow(seq, 1.3) + 2;
                double brute = Double.POSITIVE_INFINITY;
                for (int i = 0; i < distinct.length - 1; i++) {
                    if (k == 2) {
                        brute = Math.min(brute, BucketAdvisor.expectedCost(lengths, List.of(distinct[i], distinct[distinct.length - 1]), cost));
                        continue;
                    }
                    for (int j = i + 1; j < distinct.length - 1; j++) {
                        brute = Math.min(brute, BucketAdvisor.expectedCost(lengths,
                                List.of(distinct[i], distinct[j], distinct[distinct.length - 1]), cost));
                    }
                }
                assertEquals(brute, BucketAdvisor.best(lengths, k, cost).expectedCost(), 1e-9, "trial " + trial + ", " + k + " buckets");
            }
        }
    }

    @Test
    void theAdvisorReportsItsGainOverTheBucketFile() {
        WorkloadResult w = WorkloadAnalysis.analyze(lengths(3, 5, 10, 60, 100, 120, 20, 30), BUCKETS, null, null, linearRun(),
                List.of("onnxruntime"), List.of("cpu"), List.of("tiny"), 1);
        WorkloadResult.Advisor a = w.engines().get(0).advisor();
        assertNotNull(a);
        assertEquals(4, a.options().size(), "2 to 5 buckets");
        WorkloadResult.Advisor.Option three = a.options().get(1);
        assertEquals(3, three.buckets());
        assertTrue(three.expectedMs() <= a.currentExpectedMs() + 1e-12, "never worse than the file's own three");
        assertEquals(100 * (1 - three.expectedMs() / a.currentExpectedMs()), three.gainPercentOverCurrent(), 1e-9);
    }

    /**
     * The cost model in milliseconds: the run's batch-1 pass is exactly seq / 64 ms at 8, 64 and 128 (no fixed cost);
     * between measured lengths it is the straight line, and an unmeasured length scales the nearest measured one.
     */
    @Test
    void theCostModelJoinsTheMeasuredP50s() {
        ShapeLatency latency = ShapeLatency.of(linearRun(), "onnxruntime", "cpu", "tiny");
        // HdrHistogram keeps 3 significant digits: 1 ms is stored as 1.000447 ms.
        assertEquals(1.0, latency.costMs(64, 1), 0.001);
        assertEquals(1.5, latency.costMs(96, 1), 0.0015, "halfway between 64 and 128");
        assertEquals(4.0, latency.costMs(256, 1), 0.004, "beyond 128: the last segment's slope");
        assertTrue(latency.extrapolated(256, 1) && latency.extrapolated(4, 1) && !latency.extrapolated(96, 1));
        assertEquals(0.5, latency.quantileMs(32, 1, 0.5), 0.01, "an unmeasured length, scaled from the nearest measured one");
        assertTrue(latency.measured(64, 1) && !latency.measured(32, 1));
    }

    /**
     * A pass that costs 1 ms per call plus seq / 64 ms per row: a request of 4 tokens costs about 1.06 ms, not the
     * 0.8 ms a power law with no intercept through 8, 64 and 128 gives (it sends short inputs' cost to zero and
     * flatters small buckets). The fixed cost comes from the batch fit's intercept.
     */
    @Test
    void shortLengthsPayTheFixedCostPerCall() {
        RunResult template = SampleRuns.sampleRun();
        List<CellResult> cells = new ArrayList<>();
        for (int batch : new int[] {1, 2, 4, 8}) {
            for (int seq : BUCKETS) {
                Histogram h = PassRecorder.newHistogram();
                for (int i = 0; i < 100; i++) {
                    h.recordValue(Math.round((1 + seq / 64.0 * batch) * 1e6));
                }
                LatencySummary l = LatencySummary.of(h);
                cells.add(new CellResult(CellStatus.OK, null, new CellResult.Identity("onnxruntime", "cpu", "tiny", "ab".repeat(32),
                        seq, batch), new CellResult.Counts(1, 10, 100), new CellResult.Latency(l, l, batch * 1000 / l.meanMs()),
                        List.of(new ColdStart(1, 1, 1)), new CellResult.Session("CPUExecutionProvider", 1, 1, "1.23.2",
                        "cpu build", "cpu", "pinned"), new CellResult.Histograms(HistogramCodec.encode(h), null), CellResult.ForkRecords.NONE));
            }
        }
        RunResult run = template.withCells(cells, template.finishedAt()).withProfile(null);
        run = run.withAnalysis(io.inferbench.results.RunAnalysis.analyze(run, io.inferbench.cli.Settings.defaultRegime()));
        ShapeLatency latency = ShapeLatency.of(run, "onnxruntime", "cpu", "tiny");
        assertEquals(1.0, latency.fixedCostMs(), 0.01, "the intercept of p50 against batch at seq 8");
        assertEquals(1 + 4 / 64.0, latency.costMs(4, 1), 0.01);
        assertTrue(latency.describe(1).contains("intercept"), latency.describe(1));
        ShapeLatency profiled = ShapeLatency.of(run.withProfile(template.profile()), "onnxruntime", "cpu", "tiny");
        assertEquals(0.030, profiled.fixedCostMs(), 1e-9, "the profile's floor, where the run has one");
        WorkloadResult.Advisor advisor = WorkloadAnalysis.analyze(lengths(2, 3, 4, 5, 6, 100, 120, 128), BUCKETS, null, null, run,
                List.of("onnxruntime"), List.of("cpu"), List.of("tiny"), 1).engines().get(0).advisor();
        for (WorkloadResult.Advisor.Option o : advisor.options()) {
            assertEquals(o.boundaries().stream().filter(b -> b < 8 || b > 128).toList(), o.extrapolatedBoundaries(),
                    "boundaries outside 8..128 are said to be extrapolated: " + o);
        }
        assertTrue(advisor.options().stream().anyMatch(o -> !o.extrapolatedBoundaries().isEmpty()), "6 < 8 is advised and flagged");
    }

    @Test
    void theLengthHistogramCountsEveryRequest() {
        WorkloadResult w = WorkloadAnalysis.analyze(lengths(1, 2, 3, 50, 51, 400), BUCKETS, null, null, linearRun(),
                List.of("onnxruntime"), List.of("cpu"), List.of("tiny"), 1);
        assertEquals(6, w.lengthHistogram().stream().mapToLong(WorkloadResult.Bin::requests).sum());
    }

    /** The mixed stream warms every bucket the workload reaches, however rare: here 256 holds 1 request in 100. */
    @Test
    void theMixedStreamWarmsEveryBucketTheWorkloadReaches() {
        int[] lengths = new int[100];
        Arrays.fill(lengths, 30);
        lengths[57] = 200;
        lengths[58] = 700; // beyond the largest bucket: truncated to 512
        List<Integer> warmed = MixedStream.oneRequestPerBucket(lengths(lengths), List.of(64, 256, 512), 512);
        assertEquals(List.of(0, 57, 58), warmed);
    }
}
