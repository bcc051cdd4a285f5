package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.measure.ColdStart;
import io.inferbench.measure.LatencySummary;

import java.util.List;

/**
 * One (backend, device, model, seqLen, batch) cell of a sweep, its fields grouped by concern and written flat in
 * run.json ({@link JsonUnwrapped}); each group says what its fields hold. A cell whose fork failed is kept, failed
 * ({@link #failed}), so a run lists every planned cell; the forks it finished keep theirs ({@link #failedKeeping}).
 *
 * @param coldStarts one per fork with {@code isolation=cell} only; with a JVM per model, in {@code forkJvms}
 */
// Every key in a fixed order: the derived unstable and memoryGrowing came in the order reflection found their methods,
// which differed between JVMs (a test JVM beside another read them swapped), and run.json is compared byte for byte. A
// group is named where its fields go: Jackson writes an unwrapped group's fields in its place.
@JsonPropertyOrder({"status", "error", "identity", "counts", "latency", "coldStarts", "session", "histograms",
        "forkRecords", "unstable", "memoryGrowing"})
public record CellResult(
        CellStatus status,
        String error,
        @JsonUnwrapped Identity identity,
        @JsonUnwrapped Counts counts,
        @JsonUnwrapped Latency latency,
        List<ColdStart> coldStarts,
        @JsonUnwrapped Session session,
        @JsonUnwrapped Histograms histograms,
        @JsonUnwrapped ForkRecords forkRecords) {

    /** A group is never null (an absent one reads back as every field null, so it is written as one). */
    public CellResult {
        counts = counts == null ? Counts.NONE : counts;
        latency = latency == null ? Latency.NONE : latency;
        session = session == null ? Session.NONE : session;
        histograms = histograms == null ? Histograms.NONE : histograms;
        forkRecords = forkRecords == null ? ForkRecords.NONE : forkRecords;
    }

    /** Which cell: the engine, the device and the model (with its file's SHA-256), and the shape. */
    public record Identity(String backend, String device, String model, String modelSha256, int seqLen, int batch) {
        public Identity(SeriesKey series, String modelSha256, int batch) {
            this(series.backend(), series.device(), series.model(), modelSha256, series.seqLen(), batch);
        }
    }

    /** How many forks ran, and their warm-up and measured passes, summed over them ({@code forkRuns}: each fork's). */
    public record Counts(int forks, long warmupPasses, long measuredPasses) {
        static final Counts NONE = new Counts(0, 0, 0);
    }

    /**
     * @param latencyMs        the measured passes only, over all forks, each fork weighed equally whatever its number of
     *                         passes ({@link LatencySummary#ofForks}); its {@code count} is every fork's passes
     * @param warmupLatencyMs  the warm-up passes, reported apart and excluded from everything else
     * @param samplesPerSecond {@code batch / mean pass latency}, the single-stream throughput
     */
    public record Latency(LatencySummary latencyMs, LatencySummary warmupLatencyMs, Double samplesPerSecond) {
        static final Latency NONE = new Latency(null, null, null);
    }

    /**
     * How the session actually ran, as the engine reported it (its {@code SessionFacts}, which this package may not
     * name): the engine's version and build ({@code engineFlavor}: CPU, or the CUDA flavor), the device in its words,
     * both thread counts; every field null for a cell whose session never ran.
     */
    public record Session(String executionProvider, Integer intraOpThreads, Integer interOpThreads, String engineVersion,
                          String engineFlavor, String deviceUsed, String outputHandling) {
        public static final Session NONE = new Session(null, null, null, null, null, null, null);
    }

    /**
     * @param histogramNs      every measured pass of every fork (not weighed), an HdrHistogram of nanoseconds,
     *                         compressed, in Base64 ({@link io.inferbench.measure.HistogramCodec}): any percentile again
     * @param forkHistogramsNs with two or more forks, each fork's on its own, so a comparison sees JVM-to-JVM variation;
     *                         null with one fork, where it would repeat {@code histogramNs}
     */
    public record Histograms(String histogramNs, List<String> forkHistogramsNs) {
        static final Histograms NONE = new Histograms(null, null);
    }

    /**
     * What each fork recorded apart from the numbers above.
     *
     * @param forkRuns      each fork's counts, first pass at the shape, why its warm-up ended and its measurement stopped
     * @param departedForks forks that departed from their siblings and were measured again in a fresh JVM
     *                      ({@link io.inferbench.runner.ForkDeparture}), in none of the numbers; null when none did
     * @param phases        for a unit with parts of its own (a target's stages, a generation's phases), each part over
     *                      the kept forks ({@link UnitPhases}); null for an engine's forward pass
     */
    public record ForkRecords(List<CellFork> forkRuns, List<DepartedFork> departedForks, UnitPhases phases) {
        public static final ForkRecords NONE = new ForkRecords(null, null, null);

        /** Only each fork's record: no fork departed, and the unit has no phases. */
        public static ForkRecords of(List<CellFork> forkRuns) {
            return new ForkRecords(forkRuns, null, null);
        }
    }

    /**
     * What a unit with phases recorded in the cell's kept forks.
     *
     * @param histogramsNs each phase's measured values over the kept forks, added ({@link io.inferbench.measure.HistogramCodec}):
     *                     one value per occurrence, so a stage a call marks twice counts twice
     * @param stages       each phase's time per unit (its total over the units, so a repeated stage adds up) and its share
     *                     of the unit's mean, in the order first seen, then {@link #OUTSIDE}: the unit's mean less every
     *                     stage's, so the rows add up to the unit
     * @param markCostNs   what one mark cost in the forks' JVMs (the largest), where the unit marks its phases inside its
     *                     timed region; null where it does not
     * @param outputs      what each kept fork's unit left, in round order (a generation's tokens and cache bytes); not written
     * @param forkHistogramsNs with two or more kept forks, each phase's histogram in each fork on its own, in the order of
     *                     {@code forkRuns} (as {@code forkHistogramsNs} is the unit's): what an A/B run in {@code passes}
     *                     mode pairs A's and B's phases by; null with one fork, where it would repeat {@code histogramsNs}
     */
    public record UnitPhases(java.util.Map<String, String> histogramsNs, List<StageShare> stages, Double markCostNs,
                             @com.fasterxml.jackson.annotation.JsonIgnore List<com.fasterxml.jackson.databind.JsonNode> outputs,
                             java.util.Map<String, List<String>> forkHistogramsNs) {
        /** The name of the row for the part of a unit outside every stage. */
        public static final String OUTSIDE = "(outside any stage)";
    }

    /**
     * One stage's part of a unit.
     *
     * @param latencyMs     the stage's own percentiles, per occurrence; null for {@link UnitPhases#OUTSIDE}, which has a mean
     *                      only
     * @param meanMsPerUnit its total time over the units, per unit
     * @param sharePercent  of the unit's mean
     */
    public record StageShare(String name, LatencySummary latencyMs, double meanMsPerUnit, double sharePercent) {
    }

    /**
     * How a failed cell's error starts when the fork JVM's failure was a crash of inferbench itself (a bug, not the
     * engine or the model): such a run exits 3, never 1.
     */
    public static final String HARNESS_CRASH = "crash of inferbench";

    /**
     * Why this cell's numbers changed under the harness's feet ({@link Instability}: a kept measurement that disagrees
     * with the one set aside, or forks that disagree, beyond what the machine's noise explains), with both figures; null
     * when they did not. Derived from the forks, so every stored run.json reads it too.
     */
    @com.fasterxml.jackson.annotation.JsonProperty("unstable")
    public String unstable() {
        return Instability.of(this);
    }

    /**
     * Why this cell's memory grew with its calls ({@link io.inferbench.probe.MemoryUse#growing}: direct buffers or the
     * resident set over the measured passes, beyond documented bounds), in the fork where it grew most; null when it did
     * not. Derived from the forks' memory, so every stored run.json reads it too.
     */
    @com.fasterxml.jackson.annotation.JsonProperty("memoryGrowing")
    public String memoryGrowing() {
        if (forkRuns() == null) {
            return null;
        }
        return forkRuns().stream().filter(f -> f.memory() != null && f.memory().growing() != null)
                .map(f -> "fork " + f.round() + ": " + f.memory().growing()).findFirst().orElse(null);
    }

    /** Whether this cell failed by a crash of inferbench itself ({@link #HARNESS_CRASH}). */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean harnessCrash() {
        return status == CellStatus.FAILED && error != null && error.contains(HARNESS_CRASH);
    }

    /**
     * A cell that was planned but not measured: everything but its identity and the error is absent, so that the run
     * file still lists every planned cell.
     */
    public static CellResult failed(SeriesKey series, String modelSha256, int batch, String error) {
        return new CellResult(CellStatus.FAILED, error, new Identity(series, modelSha256, batch), Counts.NONE, Latency.NONE,
                null, Session.NONE, Histograms.NONE, ForkRecords.NONE);
    }

    /**
     * A cell that failed in some fork, keeping what its other forks finished: their counts, per-fork histograms and
     * {@code forkRuns} from {@code finished} (the merge of those forks), but no percentiles, which would be of fewer
     * forks than planned. Nothing measured is lost when a later fork fails.
     */
    public static CellResult failedKeeping(CellResult finished, String error) {
        List<String> perFork = finished.forkHistogramsNs() != null ? finished.forkHistogramsNs()
                : List.of(finished.histogramNs());
        return new CellResult(CellStatus.FAILED, error, finished.identity, finished.counts, null, finished.coldStarts,
                finished.session, new Histograms(null, perFork), ForkRecords.of(finished.forkRuns()));
    }

    /** This cell with {@code departed} recorded as its departed forks. */
    public CellResult withDepartedForks(List<DepartedFork> departed) {
        return new CellResult(status, error, identity, counts, latency, coldStarts, session, histograms,
                new ForkRecords(forkRuns(), departed == null ? null : List.copyOf(departed), phases()));
    }

    /** This cell with what its units' phases recorded. */
    public CellResult withPhases(UnitPhases newPhases) {
        return new CellResult(status, error, identity, counts, latency, coldStarts, session, histograms,
                new ForkRecords(forkRuns(), departedForks(), newPhases));
    }

    /** This cell with {@code runs} as its forks' records. */
    public CellResult withForkRuns(List<CellFork> runs) {
        return new CellResult(status, error, identity, counts, latency, coldStarts, session, histograms,
                new ForkRecords(runs, departedForks(), phases()));
    }

    /** The series this cell belongs to: everything but the batch size. */
    public SeriesKey series() {
        return new SeriesKey(backend(), device(), model(), seqLen());
    }

    /** backend/device/model/seqN/batchN: the key that forks, progress lines and comparisons use for a cell. */
    public String id() {
        return series().cellId(batch());
    }

    public boolean measured() {
        return status == CellStatus.OK;
    }

    // Each group's fields, read through the group, as before the groups.

    public String backend() {
        return identity.backend();
    }

    public String device() {
        return identity.device();
    }

    public String model() {
        return identity.model();
    }

    public String modelSha256() {
        return identity.modelSha256();
    }

    public int seqLen() {
        return identity.seqLen();
    }

    public int batch() {
        return identity.batch();
    }

    public int forks() {
        return counts.forks();
    }

    public long warmupPasses() {
        return counts.warmupPasses();
    }

    public long measuredPasses() {
        return counts.measuredPasses();
    }

    public LatencySummary latencyMs() {
        return latency.latencyMs();
    }

    public LatencySummary warmupLatencyMs() {
        return latency.warmupLatencyMs();
    }

    public Double samplesPerSecond() {
        return latency.samplesPerSecond();
    }

    public String executionProvider() {
        return session.executionProvider();
    }

    public Integer intraOpThreads() {
        return session.intraOpThreads();
    }

    public Integer interOpThreads() {
        return session.interOpThreads();
    }

    public String engineVersion() {
        return session.engineVersion();
    }

    public String engineFlavor() {
        return session.engineFlavor();
    }

    public String deviceUsed() {
        return session.deviceUsed();
    }

    public String outputHandling() {
        return session.outputHandling();
    }

    public String histogramNs() {
        return histograms.histogramNs();
    }

    public List<String> forkHistogramsNs() {
        return histograms.forkHistogramsNs();
    }

    public List<CellFork> forkRuns() {
        return forkRecords.forkRuns();
    }

    public List<DepartedFork> departedForks() {
        return forkRecords.departedForks();
    }

    public UnitPhases phases() {
        return forkRecords.phases();
    }
}
