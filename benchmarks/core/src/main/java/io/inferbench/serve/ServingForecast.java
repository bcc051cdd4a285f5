package io.inferbench.serve;

import io.inferbench.Text;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunResult;
import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * What the serving points of one engine, device and model are predicted with: the queue simulator and its service
 * times, from the sweep's cells or from the serving warm-up, with a note of where they came from ({@link ServingRunner}).
 */
final class ServingForecast {
    private final ServeOptions options;
    private final RequestShape inputs;
    private final int rowsPerRequest;
    private final int largestBatch;

    /**
     * @param inputs         the workload's requests, or null
     * @param rowsPerRequest the rows one request carries
     * @param largestBatch   the largest batch, in requests, any policy of the run forms
     */
    ServingForecast(ServeOptions options, RequestShape inputs, int rowsPerRequest, int largestBatch) {
        this.options = options;
        this.inputs = inputs;
        this.rowsPerRequest = rowsPerRequest;
        this.largestBatch = largestBatch;
    }

    private List<Integer> rowsNeeded() {
        return IntStream.rangeClosed(1, largestBatch).map(k -> k * rowsPerRequest).boxed().toList();
    }

    /** The simulator the points are predicted with (null: nothing to predict from), and where its times came from. */
    record Forecast(QueueSimulator simulator, String note) {
    }

    /**
     * Service times for the simulator: the sweep's steady cells at the serving length (and at each bucket the workload
     * reaches), where they price every batch the policies form: the pass alone, at least a second of passes in each of
     * several fresh JVMs. Otherwise the serving warm-up's own steady passes (batch start to result, through the worker's
     * path), where it timed every batch size {@value ServingWarmup#PASSES_FOR_FORECAST} times or more: a smaller sample,
     * so the second choice. Either way, measured one pass at a time: the sharing of {@code cores} among concurrent
     * passes is modelled ({@link QueueSimulator#stretch}).
     */
    Forecast forecast(RunResult run, String backend, String device, String model, ServingWarmup.Result warmup,
                              int cores, int threadsPerPass) {
        String sharing = cores > 0 ? "; concurrent passes share " + cores + " cores, " + threadsPerPass + " engine thread(s) each"
                : "; concurrent passes on the device are not modelled as sharing it";
        ServiceTimes swept = serviceTimes(run, backend, device, model, options.seqLen());
        Map<Integer, ServiceTimes> sweptBySeq = new LinkedHashMap<>();
        if (inputs instanceof RequestInputs w) {
            for (int bucket : w.buckets()) {
                ServiceTimes times = serviceTimes(run, backend, device, model, bucket);
                if (times != null) {
                    sweptBySeq.put(bucket, times);
                }
            }
        }
        Forecast fromSweep = swept == null ? null : new Forecast(new QueueSimulator(swept, sweptBySeq, rowsPerRequest, cores,
                threadsPerPass), swept.note(rowsNeeded()) + sharing);
        boolean sweptComplete = swept != null && rowsNeeded().stream().allMatch(swept::canPrice)
                && (!(inputs instanceof RequestInputs) || warmup.serviceNs().keySet().stream().allMatch(b -> sweptBySeq.containsKey(b)
                && rowsNeeded().stream().allMatch(sweptBySeq.get(b)::canPrice)));
        if (sweptComplete) {
            return withPath(fromSweep, swept, sweptBySeq, warmup, cores, threadsPerPass, sharing);
        }
        if (warmup.forecastable(largestBatch)) {
            Map<Integer, ServiceTimes> bySeq = new LinkedHashMap<>();
            ServiceTimes base = null;
            for (Map.Entry<Integer, Map<Integer, Histogram>> bucket : warmup.serviceNs().entrySet()) {
                Map<Integer, Histogram> byRows = new LinkedHashMap<>();
                bucket.getValue().forEach((requests, h) -> byRows.put(requests * rowsPerRequest, h));
                ServiceTimes times = new ServiceTimes(byRows);
                if (bucket.getKey() == 0 || base == null) {
                    base = times;
                }
                if (bucket.getKey() > 0) {
                    bySeq.put(bucket.getKey(), times);
                }
            }
            return new Forecast(new QueueSimulator(base, bySeq, rowsPerRequest, cores, threadsPerPass), Text.f(
                    "service times from the serving warm-up's %d steady passes (batch start to result, every batch size "
                    + "1 to %d%s; the sweep's cells did not price them all)%s", warmup.passes(), largestBatch,
                    !(inputs instanceof RequestInputs) ? "" : " at every bucket the workload reaches", sharing));
        }
        return fromSweep != null ? fromSweep : new Forecast(null, "no prediction: the sweep measured no cell at seq "
                + options.seqLen() + ", and the serving warm-up did not time every batch size "
                + ServingWarmup.PASSES_FOR_FORECAST + " times");
    }

    /**
     * For text workloads, the sweep's pass times plus what the serving path adds around each pass, measured in the serving
     * warm-up: its service time (batch start to result through the worker's own path: tokenizing the batch's text, input
     * tensors, the pass, reading and splitting the output) less the sweep's pass at the same batch, medians, per batch
     * size and bucket: tokenizing is real work the sweep's pass leaves out. Without text the path is input tensors and
     * output reads, microseconds, while the two medians, taken minutes apart in different JVMs, differ by the machine's
     * drift by more (docs/findings.md, "The serving path"): adding that would add noise, so the sweep's pass stands alone.
     */
    private Forecast withPath(Forecast fromSweep, ServiceTimes swept, Map<Integer, ServiceTimes> sweptBySeq,
                              ServingWarmup.Result warmup, int cores, int threadsPerPass, String sharing) {
        Map<Integer, Histogram> base = warmup.serviceNs().get(0);
        if (!(inputs instanceof RequestInputs w) || !w.workload().hasText() || !warmup.failures().isEmpty() || warmup.serviceNs().isEmpty()) {
            return fromSweep;
        }
        ServiceTimes baseTimes = swept;
        String path = "";
        if (base != null) {
            Map<Integer, Long> ns = pathNs(swept, base);
            baseTimes = swept.plusPath(ns);
            path = describe(ns);
        }
        Map<Integer, ServiceTimes> bySeq = new LinkedHashMap<>();
        for (Map.Entry<Integer, ServiceTimes> e : sweptBySeq.entrySet()) {
            Map<Integer, Histogram> bucket = warmup.serviceNs().get(e.getKey());
            if (bucket == null) {
                bySeq.put(e.getKey(), e.getValue());
                continue;
            }
            Map<Integer, Long> ns = pathNs(e.getValue(), bucket);
            bySeq.put(e.getKey(), e.getValue().plusPath(ns));
            path += (path.isEmpty() ? "" : "; ") + "bucket " + e.getKey() + ": " + describe(ns);
        }
        return new Forecast(new QueueSimulator(baseTimes, bySeq, rowsPerRequest, cores, threadsPerPass),
                fromSweep.note().replace(sharing, "") + "; plus the serving path's own cost per batch (tokenizing the text, "
                        + "input tensors, output reads), from the serving warm-up (its service time less the sweep's pass, "
                        + "medians): " + path + sharing);
    }

    /** Per batch of k requests (k x rows per request rows): the warm-up's median service less the sweep's median pass. */
    private Map<Integer, Long> pathNs(ServiceTimes swept, Map<Integer, Histogram> warmupByRequests) {
        Map<Integer, Long> ns = new java.util.TreeMap<>();
        warmupByRequests.forEach((requests, h) -> {
            int rows = requests * rowsPerRequest;
            if (swept.canPrice(rows)) {
                ns.put(rows, Math.max(0, h.getValueAtPercentile(50) - swept.quantile(rows, 0.5)));
            }
        });
        return ns;
    }

    private static String describe(Map<Integer, Long> ns) {
        return ns.entrySet().stream().map(e -> Text.f("+%.0f µs at %d row(s)", e.getValue() / 1e3, e.getKey()))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /** The sweep's cells of this engine, device and model at the serving sequence length, by batch size. */
    private ServiceTimes serviceTimes(RunResult run, String backend, String device, String model, int seq) {
        Map<Integer, Histogram> byRows = new LinkedHashMap<>();
        for (CellResult cell : run.cells()) {
            if (cell.measured() && cell.backend().equals(backend) && cell.device().equals(device) && cell.model().equals(model)
                    && cell.seqLen() == seq) {
                byRows.put(cell.batch(), HistogramCodec.decode(cell.histogramNs()));
            }
        }
        return byRows.isEmpty() ? null : new ServiceTimes(byRows);
    }
}
