package io.inferbench.ci;

import static io.inferbench.ci.Json.absent;
import static io.inferbench.ci.Json.given;
import static io.inferbench.ci.Json.list;
import static io.inferbench.ci.Json.map;
import static io.inferbench.ci.Json.texts;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Serving under load, the soak and the ablation (docs/serving.md). */
final class ServingChecks {

    private ServingChecks() {
    }

    /** The README's serving recipe: closed loop, open loop, two max waits, the SLA search, predictions. No args. */
    static String serving(List<String> args) {
        JsonNode run = Json.latestRun();
        Expect.that(run.path("schemaVersion").asInt() == 11, "schema version 11");
        JsonNode s = run.path("serving");
        List<JsonNode> points = list(s.path("points"));
        long asked = points.stream().filter(p -> p.path("purpose").asText().equals("point")).count();
        Expect.that(asked == 2 + 2 + 2 * 2, "closed loop x2, open loop x2, batcher 2 waits x 2 rates", asked);
        for (JsonNode p : points) {
            double rate = p.path("sent").asLong() == 0 ? 0 : p.path("failed").asDouble() / p.path("sent").asDouble();
            Expect.that(Math.abs(p.path("errorRate").asDouble() - rate) < 1e-12, "every point's error rate", p);
            Expect.that(p.path("sent").asLong() == p.path("completed").asLong() + p.path("failed").asLong(), "no request lost", p);
            Expect.that(!absent(p.path("predicted")), "a prediction beside every point", p);
            if (p.path("maxBatch").asInt() > 1) {
                for (Iterator<String> k = p.path("batchSizes").fieldNames(); k.hasNext(); ) {
                    String size = k.next();
                    Expect.that(Integer.parseInt(size) <= p.path("maxBatch").asInt(), "no batch above max batch", size, p);
                }
            }
            Expect.that(p.path("sustained").asBoolean() == (p.path("paced").asBoolean() && !p.path("overloaded").asBoolean()),
                    "sustained is paced and not overloaded", p);
            Expect.that(p.path("overloaded").asBoolean() == !absent(p.path("overloadReason")), "an overloaded point says why", p);
        }
        Expect.that(s.path("slaMaxErrorRate").asDouble() == 0 && s.path("closedLoopKnee").size() == 1 && given(s.at("/closedLoopKnee/0/reason")),
                "a closed-loop knee with its reason", s.path("closedLoopKnee"));
        Set<String> policies = new HashSet<>(texts(s.path("slaBoundary"), "policy"));
        Expect.that(policies.equals(Set.of("no batching", "workers 2", "batch<=8 wait 0 ms", "batch<=8 wait 10 ms")), "a boundary per policy", policies);
        for (JsonNode b : s.path("slaBoundary")) {
            Expect.that(given(b.path("steps")), "every search measured", b);
            Expect.that(Set.of("measured", "lower bound", "none down to the floor").contains(b.path("boundary").asText()), "what the boundary is", b.path("boundary"));
            Expect.that(Math.abs(b.path("floorRps").asDouble() - 200.0 / 60) < 1e-9, "the floor is 200 requests in 60 s", b.path("floorRps"));
            if (given(b.path("maxRateRps")) && given(b.path("predictedMaxRateRps"))) {
                Expect.that(Math.abs(b.path("predictedToMeasured").asDouble() - b.path("predictedMaxRateRps").asDouble() / b.path("maxRateRps").asDouble()) < 1e-9,
                        "predicted over measured", b);
            }
            List<Double> rates = map(b.path("steps"), st -> st.path("rateRps").asDouble()).stream().sorted().toList();
            for (int i = 1; i < rates.size(); i++) {
                Expect.that(rates.get(i) > rates.get(i - 1) * 1.005, "no rate measured twice", rates);
            }
        }
        String report = Json.text("results/latest/report.md");
        Expect.that(report.contains("predicted / measured") && report.contains("## Serving under load") && report.contains("carries the most load under the SLA"),
                "the serving section of report.md");
        Expect.that(Json.nonEmptyFile("results/latest/plots/serving-onnxruntime-cpu-tiny.png"), "the serving plot");
        JsonNode best = list(s.path("slaBoundary")).stream().filter(b -> given(b.path("maxRateRps")))
                .max((a, b) -> Double.compare(a.path("maxRateRps").asDouble(), b.path("maxRateRps").asDouble())).orElseThrow();
        return String.format("%d serving points, nothing lost; most load under the SLA: %s at %.0f requests/s; predicted/measured %s", points.size(),
                best.path("policy").asText(), best.path("maxRateRps").asDouble(), list(s.path("slaBoundary")).stream().filter(b -> given(b.path("predictedToMeasured")))
                        .map(b -> String.format("%s %.2f", b.path("policy").asText(), b.path("predictedToMeasured").asDouble())).collect(Collectors.joining(", ")));
    }

    /** A 60-s soak with the no-op engine's ablation. No args. */
    static String soakAblation(List<String> args) {
        JsonNode s = Json.latestRun().path("serving");
        Expect.that(s.path("soak").size() == 1, "one soak", s.path("soak"));
        JsonNode k = s.at("/soak/0");
        Expect.that(k.path("rateRps").asDouble() == 200 && k.path("windowSeconds").asDouble() == 10 && k.path("windows").size() == 6,
                "six 10-s windows at 200 requests/s", k.path("rateRps"), k.path("windows").size());
        long inWindows = list(k.path("windows")).stream().mapToLong(w -> w.path("sent").asLong()).sum();
        Expect.that(k.path("sent").asLong() == k.path("completed").asLong() + k.path("failed").asLong() && k.path("sent").asLong() == inWindows,
                "every request in a window");
        for (JsonNode w : k.path("windows")) {
            Expect.that(given(w.path("rssMb")) && !absent(w.path("heapMb")) && w.path("p50Ms").asDouble() <= w.path("p99Ms").asDouble()
                    && w.path("p99Ms").asDouble() <= w.path("maxMs").asDouble(), "a window's memory and ordered latency", w);
        }
        Expect.that(map(k.path("notes"), JsonNode::asText).stream().noneMatch(n -> n.contains("pre-touch")), "mvn verify pre-touches the heap for a soak");
        JsonNode lt = k.path("latencyTrend");
        JsonNode mt = k.path("memoryTrend");
        Expect.that(lt.path("low").asDouble() <= lt.path("percentPerMinute").asDouble() && lt.path("percentPerMinute").asDouble() <= lt.path("high").asDouble()
                && mt.path("low").asDouble() <= mt.path("mbPerMinute").asDouble() && mt.path("mbPerMinute").asDouble() <= mt.path("high").asDouble(),
                "each trend within its interval", lt, mt);
        Expect.that(mt.path("verdict").asText().equals("stable"), "tiny at 200 requests/s leaks nothing", mt.path("reason"));
        Expect.that(Set.of("stable", "drifting").contains(lt.path("verdict").asText()), "latency stable or drifting", lt);
        Expect.that(Json.text("results/latest/report.md").contains("### Soak: onnxruntime on cpu, tiny"), "the soak in report.md");
        Expect.that(Json.nonEmptyFile("results/latest/plots/soak-onnxruntime-cpu-tiny.png"), "the soak plot");
        JsonNode a = s.at("/ablation/0");
        JsonNode h = a.path("harness");
        Expect.that(texts(a.path("parts"), "name").equals(List.of("full", "noop-engine", "outputs-unread", "full (repeat)")) && absent(h.path("tokenizeMeanMs")),
                "the ablation's parts without a tokenizer", a.path("parts"));
        Expect.that(given(a.path("skipped")) && a.at("/skipped/0").asText().contains("fixed-tokens"), "fixed-tokens skipped, and why", a.path("skipped"));
        return String.format("the no-op engine at 200 requests/s: the harness alone %.4f ms per request at the mean, with the generator's lateness %.4f ms "
                        + "and the queue %.4f ms: %.4f ms from intended send, p99 %.3f ms; 60-s soak of tiny at 200 requests/s: latency %s (%+.2f%%/min "
                        + "[%+.2f, %+.2f], p %.3f), memory %s (%+.2f MiB/min [%+.2f, %+.2f]); errors %d of %d",
                h.path("pathMeanMs").asDouble(), h.path("generatorLagMeanMs").asDouble(), h.path("queueMeanMs").asDouble(), h.path("meanMs").asDouble(),
                h.path("p99Ms").asDouble(), lt.path("verdict").asText(), lt.path("percentPerMinute").asDouble(), lt.path("low").asDouble(),
                lt.path("high").asDouble(), lt.path("pValue").asDouble(), mt.path("verdict").asText(), mt.path("mbPerMinute").asDouble(),
                mt.path("low").asDouble(), mt.path("high").asDouble(), k.path("failed").asLong(), k.path("sent").asLong());
    }

    /** The ablation of a text workload: every part's cost by difference and by stages. No args. */
    static String textAblation(List<String> args) {
        JsonNode all = Json.latestRun().at("/serving/ablation");
        Expect.that(all.size() == 1, "one ablation", all.size());
        JsonNode a = all.get(0);
        Expect.that(texts(a.path("parts"), "name").equals(List.of("full", "noop-engine", "fixed-tokens", "outputs-unread", "full (repeat)")),
                "the parts", texts(a.path("parts"), "name"));
        Expect.that(new HashSet<>(map(a.path("parts"), p -> p.path("sent").asLong())).size() == 1
                && list(a.path("parts")).stream().allMatch(p -> p.path("failed").asLong() == 0), "the same arrivals, nothing lost");
        Expect.that(texts(a.path("costs"), "part").equals(List.of("noop-engine", "fixed-tokens", "outputs-unread")), "a cost per part replaced");
        for (JsonNode c : a.path("costs")) {
            double low = c.path("meanLowMs").asDouble();
            double high = c.path("meanHighMs").asDouble();
            Expect.that(low <= c.path("meanMs").asDouble() && c.path("meanMs").asDouble() <= high && c.path("resolved").asBoolean() == (low > 0 || high < 0),
                    "a cost within its interval, resolved when it excludes 0", c);
        }
        double fixedTokenize = a.at("/parts/2/stageMeansMs").path("tokenize").asDouble(0);
        Expect.that(fixedTokenize < 0.01 && 0.01 < a.at("/parts/0/stageMeansMs/tokenize").asDouble(), "fixed tokens take the tokenizer out",
                fixedTokenize, a.at("/parts/0/stageMeansMs/tokenize"));
        JsonNode h = a.path("harness");
        Expect.that(Math.abs(h.path("generatorLagMeanMs").asDouble() + h.path("queueMeanMs").asDouble() + h.path("tokenizeMeanMs").asDouble()
                + h.path("pathMeanMs").asDouble() - h.path("meanMs").asDouble()) < 1e-9, "the harness's parts add up", h);
        Expect.that(Json.text("results/latest/report.md").contains("### Ablation: onnxruntime on cpu, tiny"), "the ablation in report.md");
        return String.format("ablation at %.0f requests/s; the harness alone %.4f ms per request at the mean (besides %.4f ms generator lag, %.4f ms queue, "
                        + "%.3f ms tokenizing; %.3f ms from intended send); %s", a.path("rateRps").asDouble(), h.path("pathMeanMs").asDouble(),
                h.path("generatorLagMeanMs").asDouble(), h.path("queueMeanMs").asDouble(), h.path("tokenizeMeanMs").asDouble(), h.path("meanMs").asDouble(),
                list(a.path("costs")).stream().map(c -> String.format("%s %.3f ms by difference [%.3f, %.3f]%s, %.3f by stages", c.path("removed").asText(),
                        c.path("meanMs").asDouble(), c.path("meanLowMs").asDouble(), c.path("meanHighMs").asDouble(),
                        c.path("resolved").asBoolean() ? "" : " not resolved", c.path("stageMeanMs").asDouble())).collect(Collectors.joining("; ")));
    }
}
