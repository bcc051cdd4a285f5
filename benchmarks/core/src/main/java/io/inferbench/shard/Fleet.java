package io.inferbench.shard;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.results.CellResult;
import io.inferbench.results.FleetResult;
import io.inferbench.results.FleetResult.Host;
import io.inferbench.results.FleetResult.Row;
import io.inferbench.results.FleetResult.Verdicts;
import io.inferbench.results.RunResult;
import io.inferbench.results.SlaBoundary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs on different hardware, side by side: per machine the p50 and p99 of every cell they share (same engine, model,
 * sequence length and batch; the device may differ, a GPU against a CPU), each series' regime, the SLA boundary where
 * serving was run, and with prices per hour the cost of a million requests (at the SLA boundary) or samples (at the
 * best single-stream throughput the sweep measured), and the machine that is cheapest.
 *
 * <p>A machine is named by {@code -Dbench.hostLabel} when the run was given one, else by its GPU model, else by its CPU
 * (model name and part, as {@code compare} reads it). Two runs of one name are refused: label them.
 */
public final class Fleet {
    private Fleet() {
    }

    /** What a fleet report calls a run's machine. */
    static String label(RunResult run) {
        if (run.config().provenance().hostLabel() != null && !run.config().provenance().hostLabel().isBlank()) {
            return run.config().provenance().hostLabel();
        }
        List<String> gpus = run.environment().gpus();
        if (gpus != null && !gpus.isEmpty()) {
            String[] parts = gpus.get(0).split(",\\s*");
            return parts.length > 1 ? parts[1].trim() : gpus.get(0);
        }
        return identity(run);
    }

    static String identity(RunResult run) {
        var cpu = run.environment().cpu();
        return run.environment().cpuModel() + (cpu == null ? "" : " (" + cpu.part() + ")");
    }

    /** {@code NAME=PRICE,...}: price per hour by machine label. */
    public static Map<String, Double> prices(String text) {
        Map<String, Double> prices = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return prices;
        }
        for (String pair : text.split(",")) {
            int eq = pair.lastIndexOf('=');
            try {
                double price = Double.parseDouble(pair.substring(eq + 1).trim());
                if (eq <= 0 || !(price > 0)) {
                    throw new NumberFormatException();
                }
                prices.put(pair.substring(0, eq).trim(), price);
            } catch (RuntimeException e) {
                throw new BenchmarkException("-Dfleet.pricePerHour has '" + pair + "', not NAME=PRICE with a price above 0: give "
                        + "e.g. -Dfleet.pricePerHour=h200=10.5,cpu-2core=0.10, each NAME a machine's -Dbench.hostLabel");
            }
        }
        return prices;
    }

    public static FleetResult of(List<RunResult> runs, Map<String, Double> prices) {
        List<String> labels = runs.stream().map(Fleet::label).toList();
        if (new LinkedHashSet<>(labels).size() != labels.size()) {
            throw new BenchmarkException("Two runs are on machines of the same name (" + labels + "): a fleet report needs one run "
                    + "per machine. Give each machine's run -Dbench.hostLabel=NAME, or merge the runs of one machine's plan first");
        }
        for (String name : prices.keySet()) {
            if (!labels.contains(name)) {
                throw new BenchmarkException("-Dfleet.pricePerHour prices '" + name + "', which is none of the machines " + labels
                        + ": use their names");
            }
        }
        Set<String> shared = null;
        for (RunResult run : runs) {
            Set<String> keys = new LinkedHashSet<>();
            run.cells().stream().filter(CellResult::measured).forEach(c -> keys.add(key(c.backend(), c.model(), c.seqLen(), c.batch())));
            if (shared == null) {
                shared = keys;
            } else {
                shared.retainAll(keys);
            }
        }
        if (shared == null || shared.isEmpty()) {
            throw new BenchmarkException("The runs share no measured cell (same engine, model, sequence length and batch): a fleet "
                    + "report compares machines on the cells they all ran; run the same plan on each");
        }
        List<Row> rows = new ArrayList<>();
        for (String k : shared) {
            List<Double> p50 = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            CellResult any = null;
            for (RunResult run : runs) {
                CellResult c = cell(run, k);
                any = c;
                p50.add(c.latencyMs().p50Ms());
                p99.add(c.latencyMs().p99Ms());
            }
            rows.add(new Row(any.backend(), any.model(), any.seqLen(), any.batch(), p50, p99));
        }
        List<Verdicts> verdicts = new ArrayList<>();
        Set<String> seriesKeys = new LinkedHashSet<>();
        rows.forEach(r -> seriesKeys.add(r.backend() + "|" + r.model() + "|" + r.seqLen()));
        for (String s : seriesKeys) {
            String[] f = s.split("\\|");
            List<String> regimes = new ArrayList<>();
            for (RunResult run : runs) {
                regimes.add(run.fits() == null ? "n/a" : run.fits().stream().filter(fit -> fit.backend().equals(f[0])
                        && fit.model().equals(f[1]) && fit.seqLen() == Integer.parseInt(f[2])).findFirst()
                        .map(SeriesFit::verdictLabel).orElse("n/a"));
            }
            verdicts.add(new Verdicts(f[0], f[1], Integer.parseInt(f[2]), regimes));
        }
        List<Host> hosts = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            RunResult run = runs.get(i);
            Double price = prices.get(labels.get(i));
            SlaBoundary sla = run.serving() == null ? null : run.serving().slaBoundary().stream().filter(b -> b.maxRateRps() != null)
                    .max(Comparator.comparingDouble(SlaBoundary::maxRateRps)).orElse(null);
            final Set<String> sharedKeys = shared;
            CellResult best = run.cells().stream().filter(CellResult::measured).filter(c -> c.samplesPerSecond() != null)
                    .filter(c -> sharedKeys.contains(key(c.backend(), c.model(), c.seqLen(), c.batch())))
                    .max(Comparator.comparingDouble(CellResult::samplesPerSecond)).orElse(null);
            Double rps = sla == null ? null : sla.maxRateRps();
            Double sps = best == null ? null : best.samplesPerSecond();
            hosts.add(new Host(labels.get(i), identity(run), run.runId(), run.config().plan().devices(), price,
                    sla == null ? null : sla.slaP99Ms(), rps, sla == null ? null : sla.policy(),
                    price == null || rps == null ? null : price / (rps * 3600) * 1e6, sps,
                    best == null ? null : Text.f("%s %s seq %d batch %d", best.backend(), Text.shortModelName(best.model()),
                            best.seqLen(), best.batch()),
                    price == null || sps == null ? null : price / (sps * 3600) * 1e6));
        }
        String cheapest = null;
        String basis;
        boolean allRequests = hosts.stream().allMatch(h -> h.costPerMillionRequests() != null);
        boolean allSamples = hosts.stream().allMatch(h -> h.costPerMillionSamples() != null);
        if (allRequests) {
            cheapest = hosts.stream().min(Comparator.comparingDouble(Host::costPerMillionRequests)).map(Host::label).orElse(null);
            basis = "cost per million requests at each machine's SLA boundary (its best policy)";
        } else if (allSamples) {
            cheapest = hosts.stream().min(Comparator.comparingDouble(Host::costPerMillionSamples)).map(Host::label).orElse(null);
            basis = "cost per million samples at each machine's best single-stream throughput in the shared cells (no SLA "
                    + "boundary on every machine: serve with -Dbench.sla.p99Ms for the cost at an SLA)";
        } else {
            basis = "no price for every machine: give -Dfleet.pricePerHour=NAME=PRICE,... for the costs";
        }
        return new FleetResult(hosts, rows, verdicts, cheapest, basis);
    }

    private static String key(String backend, String model, int seq, int batch) {
        return backend + "|" + model + "|" + seq + "|" + batch;
    }

    private static CellResult cell(RunResult run, String key) {
        return run.cells().stream().filter(CellResult::measured)
                .filter(c -> key(c.backend(), c.model(), c.seqLen(), c.batch()).equals(key)).findFirst().orElseThrow();
    }
}
