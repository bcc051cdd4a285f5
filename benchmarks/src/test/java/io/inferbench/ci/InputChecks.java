package io.inferbench.ci;

import static io.inferbench.ci.Json.absent;
import static io.inferbench.ci.Json.given;
import static io.inferbench.ci.Json.list;
import static io.inferbench.ci.Json.map;
import static io.inferbench.ci.Json.texts;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Real inputs, precision variants, resources, and scale-out (docs/workload.md, precision.md, resources.md, scale-out.md). */
final class InputChecks {

    private InputChecks() {
    }

    /** The built-in Europarl text in three buckets. No args. */
    static String europarl(List<String> args) {
        JsonNode w = Json.latestRun().path("workload");
        Expect.that(w.path("requests").asLong() + w.path("skippedLines").asLong() == 17597 && w.path("sourceSha256").asText().length() == 64
                && w.path("tokenizerSha256").asText().length() == 64, "every line of the source, hashed with its tokenizer", w.path("requests"));
        Expect.that(map(w.path("buckets"), JsonNode::asInt).equals(List.of(128, 512, 2048)), "the buckets file's boundaries", w.path("buckets"));
        JsonNode e = w.at("/engines/0");
        Expect.that(Math.abs(list(e.path("buckets")).stream().mapToDouble(b -> b.path("share").asDouble()).sum() - 1) < 1e-9, "every request in a bucket");
        Expect.that(e.path("schemes").size() == 3 && e.at("/schemes/2/paddingFraction").asDouble() == 0, "three schemes, the last unpadded");
        Expect.that(e.at("/schemes/0/meanLatencyMs").asDouble() > e.at("/schemes/1/meanLatencyMs").asDouble(), "padding everything to 2048 costs most");
        Expect.that(map(e.at("/advisor/options"), o -> o.path("buckets").asInt()).equals(List.of(2, 3, 4, 5)), "advice for 2 to 5 buckets");
        JsonNode m = e.path("mixedStream");
        Expect.that(m.path("requests").asInt() == 500 && m.path("stagesMs").has("tokenize"), "a mixed stream of 500 tokenized requests");
        Expect.that(Json.nonEmptyFile("results/latest/plots/workload-lengths.png"), "the lengths plot");
        Expect.that(Json.text("results/latest/report.md").contains("## Real inputs"), "the workload in report.md");
        return String.format("Europarl, %d requests; mixed stream p50 %.3f ms, p99 %.3f ms; best 3 buckets %s (%+.1f%%)", w.path("requests").asLong(),
                m.at("/passMs/p50Ms").asDouble(), m.at("/passMs/p99Ms").asDouble(), e.at("/advisor/options/1/boundaries"),
                e.at("/advisor/options/1/gainPercentOverCurrent").asDouble());
    }

    /** A lengths file as the workload, served. No args. */
    static String lengthsServed(List<String> args) {
        JsonNode run = Json.latestRun();
        Expect.that(run.at("/workload/requests").asInt() == 3000 && !run.path("workload").has("tokenizer"), "a lengths file has no tokenizer");
        List<JsonNode> points = list(run.at("/serving/points"));
        Expect.that(points.size() == 2 && points.stream().allMatch(p -> p.path("sent").asLong() == p.path("completed").asLong() + p.path("failed").asLong()),
                "two points, nothing lost");
        Expect.that(run.at("/serving/conditions/0/note").asText().contains("workload"), "served from the workload");
        return "a lengths workload, served: " + points.stream().map(p -> String.format("%.3f", p.at("/latencyFromIntendedMs/p99Ms").asDouble()))
                .collect(Collectors.joining(", ", "[", "]")) + " ms p99";
    }

    /** tiny-int8 against tiny: agreement, speed-up, and the int8 roof. No args. */
    static String precision(List<String> args) {
        JsonNode run = Json.latestRun();
        JsonNode a = run.path("agreement");
        Expect.that(a.path("reference").asText().equals("tiny") && a.path("inputsPerShape").asInt() == 16, "tiny the reference, 16 inputs a shape");
        Expect.that(a.path("pairs").size() == 1 && a.at("/pairs/0/model").asText().equals("tiny-int8") && given(a.at("/pairs/0/classifier")), "one pair");
        List<JsonNode> shapes = list(a.at("/pairs/0/shapes"));
        Expect.that(shapes.size() == 6, "seq 64, 256 x batch 1, 4, 8", shapes.size());
        for (JsonNode s : shapes) {
            Expect.that(s.path("rows").asInt() == 16 * s.path("batch").asInt() && s.path("agrees").asBoolean(), "every row compared, agreeing", s);
            Expect.that(s.path("maxAbsError").asDouble() > 0 && s.path("maxAbsError").asDouble() < 0.01 && s.path("minCosine").asDouble() > 0.999
                    && s.path("top1Agreement").asDouble() >= 0.99, "int8 close to float32", s);
            Expect.that(Math.abs(s.path("speedupP50").asDouble() - s.path("referenceP50Ms").asDouble() / s.path("modelP50Ms").asDouble()) < 1e-9, "the speed-up", s);
        }
        JsonNode peaks = run.at("/profile/calibrations/0");
        List<JsonNode> int8 = list(run.at("/profile/cells")).stream().filter(c -> c.path("model").asText().endsWith("tiny-int8")).toList();
        Expect.that(int8.size() == 6 && peaks.path("peakIntegerOpsPerSecond").asDouble() > 0, "int8 cells against an integer roof");
        for (JsonNode c : int8) {
            Expect.that(c.at("/flopsByPrecision/int8").asDouble() > 0.5 * c.path("flops").asDouble(), "mostly int8 work", c.path("flopsByPrecision"));
            Expect.that(!c.path("rooflineClass").asText().equals("unreliable") && !absent(c.path("flopsPercentOfPeak")), "placed", c.path("classReason"));
            Expect.that(c.path("roofNote").asText().contains("at the int8 roof"), "at the int8 roof", c.path("roofNote"));
        }
        return "tiny-int8 against tiny: p50 speed-ups " + shapes.stream().map(s -> String.format("%.2fx", s.path("speedupP50").asDouble()))
                .collect(Collectors.joining(", ")) + String.format("; worst max abs error %.4f; judged against the measured int8 roof (%.0f GOP/s; float32 %.0f GFLOP/s): %s, none withheld",
                shapes.stream().mapToDouble(s -> s.path("maxAbsError").asDouble()).max().orElse(0), peaks.path("peakIntegerOpsPerSecond").asDouble() / 1e9,
                peaks.path("peakFlopsPerSecond").asDouble() / 1e9, int8.stream().map(c -> String.format("%.0f%%", c.path("flopsPercentOfPeak").asDouble()))
                        .collect(Collectors.joining(", ")));
    }

    /** Resources per cell and the largest batch within a memory budget. No args. */
    static String resources(List<String> args) {
        JsonNode run = Json.latestRun();
        JsonNode r = run.path("resources");
        Expect.that(r.path("memoryBudgetMb").asInt() == 2048 && r.path("budgetSource").asText().equals("-Dbench.memoryBudgetMb"), "the budget and its source");
        Expect.that(r.path("cells").size() == 8 && list(r.path("cells")).stream().allMatch(c -> c.path("peakRssMb").asDouble() > 50
                && c.path("peakSince").asText().equals("cell")), "a peak per cell", r.path("cells"));
        Expect.that(r.path("fits").size() == 2, "one fit per sequence length");
        for (JsonNode f : r.path("fits")) {
            Expect.that(!absent(f.path("largestBatch")) || f.path("note").asText().contains("does not grow"), "a largest batch, or why none", f);
            if (!absent(f.path("largestBatch"))) {
                Expect.that(f.path("extrapolated").asBoolean() == (f.path("largestBatch").asInt() > 8), "extrapolated past the sweep's batches", f);
            }
        }
        for (JsonNode c : run.path("cells")) {
            for (JsonNode fork : c.path("forkRuns")) {
                JsonNode m = fork.path("memory");
                JsonNode e = fork.at("/measurement/energy");
                Expect.that(m.path("peakRssMb").asDouble() >= m.path("rssEndMb").asDouble() && m.path("rssEndMb").asDouble() > 0
                        && fork.at("/measurement/cpu/processCpuMs").asDouble() > 0, "a fork's memory and CPU", fork);
                Expect.that(absent(e.path("joules")) != absent(e.path("unavailable")), "energy, or why not: never both, never neither", e);
            }
        }
        Expect.that(list(run.path("forkJvms")).stream().allMatch(j -> j.path("sessionRssMb").asDouble() > 0), "what session creation added");
        Expect.that(Json.text("results/latest/report.md").contains("## Resources per cell"), "resources in report.md");
        return "resources: peak RSS " + list(r.path("cells")).stream().map(c -> String.format("%.0f", c.path("peakRssMb").asDouble())).collect(Collectors.joining(", "))
                + " MiB; largest batch within 2048 MiB: " + list(r.path("fits")).stream().map(f -> "seq " + f.path("seqLen").asInt() + ": "
                + f.path("largestBatch").asText("None")).collect(Collectors.joining(", ")) + "; energy: " + r.path("energyNote").asText();
    }

    /** Two shards merged into the plan's run. No args. */
    static String shards(List<String> args) throws IOException {
        JsonNode merged = Json.read("results/shards-merged/run.json");
        List<String> plan = map(merged.at("/config/shards/0/planCells"), JsonNode::asText);
        Expect.that(map(merged.path("cells"), c -> c.path("backend").asText() + "/" + c.path("device").asText() + "/" + c.path("model").asText()
                + "/seq" + c.path("seqLen").asInt() + "/batch" + c.path("batch").asInt()).equals(plan), "the merged run holds exactly the plan's cells, in plan order");
        Expect.that(plan.size() == 6 && list(merged.path("cells")).stream().allMatch(c -> c.path("status").asText().equals("ok")), "6 cells measured");
        List<JsonNode> shards = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(Path.of("results/shards"))) {
            for (Path d : dirs.filter(d -> d.getFileName().toString().startsWith("2")).sorted().toList()) {
                shards.add(Json.read(d.resolve("run.json").toString()));
            }
        }
        Expect.that(shards.stream().map(s -> s.at("/config/shard/cells").size()).sorted().toList().equals(List.of(3, 3)), "3 cells a shard");
        List<String> all = new ArrayList<>();
        shards.forEach(s -> all.addAll(map(s.at("/config/shard/cells"), JsonNode::asText)));
        Expect.that(all.stream().sorted().toList().equals(plan.stream().sorted().toList()), "every cell in exactly one shard");
        Expect.that(new HashSet<>(shards.stream().map(s -> s.at("/config/shard/planHash").asText()).toList()).size() == 1, "one plan");
        Expect.that(merged.path("fits").size() == 2 && given(merged.at("/profile/crossChecks")), "fits and roofline checks over the whole plan");
        return "two shards of " + plan.size() + " cells merged into the plan's run: " + list(merged.path("fits")).stream()
                .map(f -> "seq " + f.path("seqLen").asInt() + ": " + f.path("regime").asText()).collect(Collectors.joining(", "));
    }

    /** A fleet of two labelled runs, priced. No args. */
    static String fleet(List<String> args) {
        JsonNode f = Json.read("results/fleet-report/fleet.json");
        Expect.that(texts(f.path("hosts"), "label").equals(List.of("cpu-1-thread", "cpu-2-threads")), "both hosts", f.path("hosts"));
        Expect.that(f.path("cells").size() == 2 && list(f.path("hosts")).stream().allMatch(h -> h.path("costPerMillionSamples").asDouble() > 0)
                && List.of("cpu-1-thread", "cpu-2-threads").contains(f.path("cheapest").asText()), "priced, the cheapest named");
        String md = Json.text("results/fleet-report/fleet.md");
        Expect.that(md.contains("cost per million samples") && md.contains("**Cheapest: "), "fleet.md says the cost and the cheapest");
        return "fleet of two labelled runs: " + list(f.path("hosts")).stream().map(h -> String.format("%s %.4f per million samples", h.path("label").asText(),
                h.path("costPerMillionSamples").asDouble())).collect(Collectors.joining("; ")) + "; cheapest " + f.path("cheapest").asText();
    }
}
