package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.Json;
import io.inferbench.results.RunStore;
import io.inferbench.results.FleetResult;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A fleet's report: {@code fleet.md}, {@code fleet.json} and a plot of p50 per shared cell and machine. */
public final class FleetReport {
    public static final String MARKDOWN = "fleet.md";
    public static final String JSON = "fleet.json";

    private FleetReport() {
    }

    /** The files written. */
    public record Written(Path markdown, Path json, Charts.ChartFile chart) {
    }

    public static Written write(FleetResult fleet, Path dir) {
        try {
            Files.createDirectories(dir.resolve("plots"));
        } catch (IOException e) {
            throw new io.inferbench.BenchmarkException("Could not create " + dir + ": " + e.getMessage() + ". Point -Dout at a "
                    + "writable folder", e);
        }
        Charts.ChartFile chart = chart(fleet, dir.resolve("plots"));
        Path json = dir.resolve(JSON);
        RunStore.writeAtomically(json, out -> Json.mapper().writeValue(out, fleet));
        Path md = dir.resolve(MARKDOWN);
        RunStore.writeAtomically(md, out -> out.write(markdown(fleet, dir.relativize(chart.png()).toString())
                .getBytes(StandardCharsets.UTF_8)));
        return new Written(md, json, chart);
    }

    static String markdown(FleetResult f, String chartPath) {
        Markdown md = new Markdown();
        md.line("# Fleet: " + String.join(" vs ", f.hosts().stream().map(FleetResult.Host::label).toList())).blank();
        md.line(f.cheapest() == null ? "**No cheapest machine named**: " + f.costBasis() + "."
                : "**Cheapest: " + f.cheapest() + "**, by " + f.costBasis() + ".").blank();
        md.header(new String[] {"machine", "identity", "run", "devices", "price per hour", "SLA boundary (req/s)",
            "cost per million requests", "best samples/s (cell)", "cost per million samples"},
                false, false, false, false, true, true, true, true, true);
        for (FleetResult.Host h : f.hosts()) {
            md.row(h.label(), h.identity(), h.runId(), String.join(", ", h.devices()), h.pricePerHour() == null ? "-"
                            : Text.f("%.4f", h.pricePerHour()),
                    h.slaRps() == null ? "-" : Text.f("%.1f (p99 <= %s ms, %s)", h.slaRps(), Text.plain(h.slaP99Ms()), h.slaPolicy()),
                    h.costPerMillionRequests() == null ? "-" : Text.f("%.4f", h.costPerMillionRequests()),
                    h.bestSamplesPerSecond() == null ? "-" : Text.f("%.1f (%s)", h.bestSamplesPerSecond(), h.bestCell()),
                    h.costPerMillionSamples() == null ? "-" : Text.f("%.4f", h.costPerMillionSamples()));
        }
        md.blank();
        md.line("Cost per million = price per hour / (rate x 3,600) x 1,000,000: requests at the machine's SLA boundary (serving, "
                + "its best policy), samples at the highest single-stream throughput (batch / mean pass) the sweep measured in "
                + "the shared cells. Each machine's numbers were measured on it alone; compare them knowing the conditions "
                + "in each run.json.").blank();
        md.line("## p50 and p99 per shared cell (ms)").blank();
        md.line("![p50 per cell and machine](" + chartPath + ")").blank();
        List<String> names = new ArrayList<>(List.of("backend", "model", "seq", "batch"));
        for (FleetResult.Host h : f.hosts()) {
            names.add(h.label() + " p50");
            names.add(h.label() + " p99");
        }
        boolean[] right = new boolean[names.size()];
        for (int i = 2; i < right.length; i++) {
            right[i] = true;
        }
        md.header(names.toArray(String[]::new), right);
        for (FleetResult.Row r : f.cells()) {
            List<String> cells = new ArrayList<>(List.of(r.backend(), Text.shortModelName(r.model()), Text.seqValue(r.seqLen()),
                    Integer.toString(r.batch())));
            for (int i = 0; i < r.p50Ms().size(); i++) {
                cells.add(Text.f("%.3f", r.p50Ms().get(i)));
                cells.add(Text.f("%.3f", r.p99Ms().get(i)));
            }
            md.row(cells.toArray(String[]::new));
        }
        md.blank();
        md.line("## Regime per series").blank();
        List<String> vnames = new ArrayList<>(List.of("backend", "model", "seq"));
        f.hosts().forEach(h -> vnames.add(h.label()));
        md.header(vnames.toArray(String[]::new));
        for (FleetResult.Verdicts v : f.verdicts()) {
            List<String> cells = new ArrayList<>(List.of(v.backend(), Text.shortModelName(v.model()), Text.seqValue(v.seqLen())));
            cells.addAll(v.regimes());
            md.row(cells.toArray(String[]::new));
        }
        md.blank();
        return md.toString();
    }

    /** p50 per shared cell, one bar per machine, on a log axis when the machines differ by more than tenfold. */
    static Charts.ChartFile chart(FleetResult f, Path dir) {
        CategoryChart chart = new CategoryChartBuilder().width(Charts.WIDTH).height(Charts.HEIGHT)
                .title("p50 per shared cell and machine").xAxisTitle("cell (engine, model, seq, batch)").yAxisTitle("p50 latency (ms)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setXAxisLabelRotation(45);
        List<String> cells = f.cells().stream().map(r -> Text.f("%s %s s%d b%d", r.backend(), Text.shortModelName(r.model()),
                r.seqLen(), r.batch())).toList();
        double min = Double.MAX_VALUE;
        double max = 0;
        for (int i = 0; i < f.hosts().size(); i++) {
            int h = i;
            List<Double> p50 = f.cells().stream().map(r -> r.p50Ms().get(h)).toList();
            for (double v : p50) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            chart.addSeries(f.hosts().get(i).label(), cells, p50);
        }
        chart.getStyler().setYAxisLogarithmic(max > 10 * min);
        return Charts.save(chart, dir, "fleet-p50");
    }

    /** The console's lines: each machine's cost and the cheapest. */
    public static void print(FleetResult f, Written written, PrintStream out) {
        out.println("[inferbench] fleet of " + f.hosts().size() + " machines, " + f.cells().size() + " shared cell(s):");
        for (FleetResult.Host h : f.hosts()) {
            out.println(Text.f("[inferbench]   %-24s %s%s%s", h.label(), h.slaRps() == null ? "no SLA boundary"
                            : Text.f("SLA boundary %.1f req/s", h.slaRps()),
                    h.bestSamplesPerSecond() == null ? "" : Text.f("; best %.1f samples/s", h.bestSamplesPerSecond()),
                    h.costPerMillionRequests() != null ? Text.f("; %.4f per million requests", h.costPerMillionRequests())
                            : h.costPerMillionSamples() != null ? Text.f("; %.4f per million samples", h.costPerMillionSamples()) : ""));
        }
        out.println("[inferbench] " + (f.cheapest() == null ? f.costBasis() : "cheapest: " + f.cheapest() + " (" + f.costBasis() + ")"));
        out.println("[inferbench] fleet report: " + written.markdown() + "; " + written.json());
    }
}
