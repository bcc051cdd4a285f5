package io.inferbench.ci;

import static io.inferbench.ci.Json.given;
import static io.inferbench.ci.Json.list;
import static io.inferbench.ci.Json.map;
import static io.inferbench.ci.Json.texts;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Generation: decoders with a key/value cache, export folders, encoder-decoders, and load (docs/generation.md). */
final class GenerationChecks {

    /** Where {@code base-decoder} leaves its step p50s for {@code bare-loop} to read beside the bare loop's. */
    static final String STEPS_FILE = "target/inferbench-steps.txt";
    private static final String DOUBLE_REFERENCE = "reference (double precision)";

    private GenerationChecks() {
    }

    private static JsonNode generation() {
        return Json.latestRun().path("generation");
    }

    /** Key/value bytes of the built-in decoders: 2 (K and V) x layers x batch x heads x positions x head size x 4 bytes. */
    private static long kvBytes(int layers, int batch, int heads, int positions, int headSize) {
        return 2L * layers * batch * heads * positions * headSize * 4;
    }

    /** {@code tiny-decoder} on both engines. No args. */
    static String tinyDecoder(List<String> args) {
        JsonNode g = generation();
        Expect.that(g.path("newTokens").asInt() == 16 && g.path("cells").size() == 8, "2 engines x 4 batches of 16 tokens");
        for (JsonNode c : g.path("cells")) {
            Expect.that(c.at("/ttftMs/p50Ms").asDouble() >= c.at("/prefillMs/p50Ms").asDouble(), "TTFT holds the prefill", c);
            Expect.that(c.path("kvCacheBytes").asLong() == kvBytes(2, c.path("batch").asInt(), 4, 64 + 16 - 1, 32), "KV bytes as the formula", c);
            Expect.that(c.path("stepP50MsByPosition").size() == 15 && c.at("/stepMs/count").asLong() >= 150, "every step position", c);
        }
        Set<String> fits = new HashSet<>(map(g.path("fits"), f -> f.path("backend").asText() + "/" + f.path("phase").asText()));
        Expect.that(fits.equals(Set.of("onnxruntime/prefill", "onnxruntime/decode", "djl/prefill", "djl/decode")), "a fit per engine and phase", fits);
        List<JsonNode> agreement = list(g.path("agreement"));
        Expect.that(agreement.size() == 8 && agreement.stream().allMatch(a -> a.path("tokensMatch").asBoolean()
                && a.path("reference").asText().equals(DOUBLE_REFERENCE)), "greedy tokens match the reference", agreement);
        return "tiny-decoder generated on both engines, greedy tokens match the reference at every batch";
    }

    /** {@code base-decoder} on ONNX Runtime; writes {@link #STEPS_FILE} for {@code bare-loop}. No args. */
    static String baseDecoder(List<String> args) throws IOException {
        JsonNode g = generation();
        Map<String, JsonNode> fits = new HashMap<>();
        g.path("fits").forEach(f -> fits.put(f.path("phase").asText(), f));
        Expect.that(!fits.get("prefill").path("regime").asText().equals("memory-bound"), "the prefill is not memory-bound", fits.get("prefill"));
        Expect.that(list(g.path("cells")).stream().allMatch(c -> c.at("/stepRoofline/flops").asDouble() > 0
                && c.at("/stepRoofline/bytes").asDouble() > 2.6e8), "weights counted in every step");
        String roof = list(g.path("cells")).stream().map(c -> "(" + c.path("batch").asInt() + ", " + c.at("/stepRoofline/rooflineClass").asText()
                + ", " + c.at("/prefillRoofline/rooflineClass").asText() + ")").collect(Collectors.joining(", "));
        Files.createDirectories(Path.of(STEPS_FILE).getParent());
        Files.writeString(Path.of(STEPS_FILE), list(g.path("cells")).stream()
                .map(c -> c.path("batch").asInt() + ":" + c.at("/stepMs/p50Ms").asDouble()).collect(Collectors.joining(" ")) + "\n");
        return String.format("base-decoder prefill %s (rho %.3f), decode %s (rho %.3f); roofline (batch, step, prefill): %s",
                fits.get("prefill").path("regime").asText(), fits.get("prefill").path("rho").asDouble(),
                fits.get("decode").path("regime").asText(), fits.get("decode").path("rho").asDouble(), roof);
    }

    /** The bare loop of docs/generation.md beside inferbench's step p50s from {@code base-decoder}. Args: CONSOLE. */
    static String bareLoop(List<String> args) {
        List<String> lines = Json.text(args.get(0)).lines().filter(l -> l.startsWith("bare loop:")).toList();
        Expect.that(lines.size() == 3, "a bare loop line per batch", lines);
        Map<String, String> steps = new HashMap<>();
        for (String pair : Json.text(STEPS_FILE).trim().split("\\s+")) {
            steps.put(pair.split(":")[0], pair.split(":")[1]);
        }
        StringBuilder out = new StringBuilder();
        for (String l : lines) {
            Matcher batch = Pattern.compile("batch (\\d+)").matcher(l);
            Matcher bare = Pattern.compile("step p50 ([0-9.]+) ms").matcher(l);
            Expect.that(batch.find() && bare.find(), "a bare loop line names its batch and step p50", l);
            Expect.that(steps.containsKey(batch.group(1)), "inferbench measured the same batch", batch.group(1), steps);
            out.append(out.length() == 0 ? "" : "; ").append(String.format("batch %s: bare loop step p50 %.2f ms, inferbench's (run before it) %.2f ms",
                    batch.group(1), Double.parseDouble(bare.group(1)), Double.parseDouble(steps.get(batch.group(1)))));
        }
        return out.toString();
    }

    /** The user decoder once its cache is paired ({@code -Dbench.kvPairs}). No args. */
    static String userDecoder(List<String> args) {
        JsonNode g = generation();
        Expect.that(new HashSet<>(texts(g.path("cells"), "backend")).equals(Set.of("onnxruntime")) && g.path("cells").size() == 2, "ONNX Runtime, 2 cells");
        Expect.that(list(g.path("cells")).stream().allMatch(c -> c.path("kvCacheBytes").asLong() == kvBytes(2, c.path("batch").asInt(), 4, 16 + 8 - 1, 16)),
                "KV bytes as the formula", g.path("cells"));
        return "the user decoder ran once its cache was paired";
    }

    /** Sampled generation: every pick timed inside its step, the agreement still greedy. Args: CONSOLE. */
    static String sampling(List<String> args) {
        JsonNode g = generation();
        String console = Json.text(args.get(0));
        Expect.that(g.path("sampling").asText().equals("temperature=0.8,topK=50,topP=0.95"), "the sampling named", g.path("sampling"));
        for (JsonNode c : g.path("cells")) {
            Expect.that(c.at("/pickMs/count").asLong() == c.path("generations").asLong() * 16, "every pick timed, 16 per generation", c);
            Expect.that(c.at("/pickMs/p50Ms").asDouble() < c.at("/stepMs/p50Ms").asDouble(), "the pick is inside the step", c);
        }
        Expect.that(given(g.path("agreement")) && list(g.path("agreement")).stream().allMatch(a -> a.path("tokensMatch").asBoolean()),
                "the agreement stays greedy");
        Expect.that(console.contains("sampled (temperature=0.8,topK=50,topP=0.95, seeded) picks"), "the console names the pick");
        return "sampled generation; pick p50 " + list(g.path("cells")).stream().map(c -> String.format("batch %d: %.0f us of a %.0f us step",
                c.path("batch").asInt(), c.at("/pickMs/p50Ms").asDouble() * 1000, c.at("/stepMs/p50Ms").asDouble() * 1000))
                .collect(Collectors.joining(", ")) + "; greedy agreement holds";
    }

    /** Generation under load: static and continuous batching, each at two rates, and their SLO boundaries. Args: CONSOLE. */
    static String generationLoad(List<String> args) {
        JsonNode r = Json.latestRun();
        JsonNode g = r.at("/serving/generation");
        String console = Json.text(args.get(0));
        Map<String, JsonNode> points = new HashMap<>();
        for (JsonNode p : g.path("points")) {
            if (p.at("/load/purpose").asText().equals("point")) {
                points.put(p.at("/served/policy").asText() + "@" + p.at("/load/rateRps").asDouble(), p);
            }
        }
        Expect.that(points.keySet().equals(Set.of("static@50.0", "static@1000.0", "continuous@50.0", "continuous@1000.0")),
                "each policy at each rate", points.keySet());
        for (JsonNode p : g.path("points")) {
            JsonNode req = p.path("requests");
            Expect.that(req.path("sent").asLong() == req.path("completed").asLong() + req.path("failed").asLong() + req.path("unfinished").asLong(),
                    "every request accounted for", req);
            Expect.that(req.path("failed").asLong() == 0, "no request failed", req.path("firstError"));
            JsonNode lat = p.path("latency");
            Expect.that(lat.at("/ttftMs/count").asLong() == req.path("sent").asLong() && lat.at("/e2eMs/count").asLong() == req.path("sent").asLong(),
                    "a TTFT and an end-to-end latency per request", lat);
            Expect.that(lat.at("/ttftMs/p50Ms").asDouble() >= lat.at("/queueWaitMs/p50Ms").asDouble(), "TTFT includes the queue wait");
            Expect.that(given(p.path("forecast")) && p.at("/forecast/ttftP50Ms").asDouble() > 0, "a forecast", p.path("forecast"));
            Expect.that(!Json.absent(p.path("slo")) && given(p.path("verdict")), "an SLO verdict", p);
        }
        for (String policy : List.of("static", "continuous")) {
            Expect.that(!points.get(policy + "@50.0").at("/requests/overloaded").asBoolean(), "not overloaded at 50 requests/s", policy);
            // Which policy's p99 is lower at 50 requests/s is a measurement (docs/generation.md), printed, not asserted.
            Expect.that(points.get(policy + "@1000.0").at("/requests/overloaded").asBoolean(), "over capacity at 1000 requests/s: flagged overloaded", policy);
        }
        Map<String, JsonNode> bounds = new HashMap<>();
        g.path("boundaries").forEach(b -> bounds.put(b.at("/served/policy").asText(), b));
        Expect.that(bounds.keySet().equals(Set.of("static", "continuous")) && bounds.values().stream().allMatch(b -> given(b.path("steps"))),
                "a searched boundary per policy", g.path("boundaries"));
        String answer = g.path("answer").asText("");
        Expect.that(!answer.isEmpty() && answer.contains("holds TTFT p99 <= 50 ms and TPOT p99 <= 5 ms") || answer.contains("no policy holds"),
                "the answer names the SLO", answer);
        Expect.that(console.contains("idle penalty (in the forecast)") && g.at("/conditions/0/idlePenalty").asText().startsWith("a batch-1 prefill after"),
                "the idle penalty said");
        String report = Json.text("results/latest/report.md");
        Expect.that(report.contains("**Which batching holds the SLO at the highest rate?**") && report.contains("## Generation under load"), "the report's section");
        for (String plot : List.of("generation-load-ttft.png", "generation-load-tpot.png")) {
            Expect.that(Files.exists(Path.of("results/latest/plots/" + plot)), "plotted", plot);
        }
        return "generation under load; at 50 requests/s static " + ttft(points.get("static@50.0")) + ", continuous " + ttft(points.get("continuous@50.0"))
                + "; 1000 requests/s overloaded under both; boundaries: " + bounds.entrySet().stream().map(e -> String.format("%s %s requests/s (%s), forecast %s",
                e.getKey(), e.getValue().path("rateRps").asText(), e.getValue().path("boundary").asText(), e.getValue().path("forecastRps").asText()))
                .collect(Collectors.joining("; "));
    }

    private static String ttft(JsonNode p) {
        return String.format("TTFT p50 %.2f (forecast %.2f) p99 %.2f ms, steps at %.1f rows", p.at("/latency/ttftMs/p50Ms").asDouble(),
                p.at("/forecast/ttftP50Ms").asDouble(), p.at("/latency/ttftMs/p99Ms").asDouble(), p.at("/formed/meanStepRows").asDouble());
    }

    /** An Optimum export folder, merged or split. Args: merged|split. */
    static String optimumFolder(List<String> args) {
        String folder = args.get(0);
        JsonNode r = Json.latestRun();
        JsonNode g = r.path("generation");
        Expect.that(new HashSet<>(texts(g.path("cells"), "backend")).equals(Set.of("onnxruntime")) && g.path("cells").size() == 2, "ONNX Runtime, 2 cells", g.path("cells"));
        Expect.that(list(g.path("cells")).stream().allMatch(c -> c.path("kvCacheBytes").asLong() == kvBytes(2, c.path("batch").asInt(), 4, 16 + 8 - 1, 16)),
                "KV bytes as the formula", g.path("cells"));
        JsonNode model = r.at("/config/models/0");
        String used = switch (folder) {
            case "merged" -> "decoder_model_merged.onnx runs the prefill and the decode steps";
            case "split" -> "decoder_model.onnx runs the prefill and decoder_with_past_model.onnx the decode steps";
            default -> throw new IllegalArgumentException("merged or split, not " + folder);
        };
        String description = model.path("description").asText();
        Expect.that(description.contains(used) && description.contains("vocab_size 1000"), "the description says which file runs what", description);
        String how = g.at("/cells/0/decoderFeeding").asText();
        Expect.that(how.contains("use_cache_branch false on the prefill") == folder.equals("merged"), "the merged decoder's branch input", how);
        for (JsonNode c : g.path("cells")) {
            for (String phase : List.of("prefillRoofline", "stepRoofline")) {
                JsonNode roof = c.path(phase);
                Expect.that(given(roof) && roof.path("flops").asDouble() > 0 && roof.path("bytes").asDouble() > 0 && given(roof.path("rooflineClass")),
                        "the work profiled", phase, roof);
            }
            Expect.that(c.at("/stepRoofline/reason").asText().contains("every weight read"), "a step reads every weight", c.at("/stepRoofline/reason"));
        }
        String roofs = list(g.path("cells")).stream().map(c -> String.format("batch %d: step %.2f MFLOP, %.2f MB, %s", c.path("batch").asInt(),
                c.at("/stepRoofline/flops").asDouble() / 1e6, c.at("/stepRoofline/bytes").asDouble() / 1e6, c.at("/stepRoofline/rooflineClass").asText()))
                .collect(Collectors.joining(", "));
        return String.format("the %s export folder generated: %s; KV bytes as the formula; sha256 %s; work profiled: %s", folder, used,
                model.path("sha256").asText().substring(0, 12), roofs);
    }

    /** The built-in encoder-decoder. No args. */
    static String tinySeq2seq(List<String> args) {
        JsonNode r = Json.latestRun();
        JsonNode g = r.path("generation");
        Expect.that(g.path("cells").size() == 6 && new HashSet<>(texts(g.path("cells"), "model")).equals(Set.of("tiny-seq2seq")), "6 cells of tiny-seq2seq");
        Expect.that(g.path("agreement").size() == 6 && list(g.path("agreement")).stream().allMatch(a -> a.path("tokensMatch").asBoolean()
                && a.path("reference").asText().equals(DOUBLE_REFERENCE)), "greedy tokens match the reference", g.path("agreement"));
        Expect.that(list(g.path("cells")).stream().allMatch(c -> c.path("crossAttentionCacheBytes").asLong()
                == kvBytes(2, c.path("batch").asInt(), 4, c.path("seqLen").asInt(), 16)), "cross-attention bytes as the formula");
        Expect.that(r.at("/config/models/0/description").asText().startsWith("built-in encoder-decoder tiny-seq2seq"), "described");
        return "tiny-seq2seq agrees with its double-precision reference on every greedy token at 6 shapes; " + list(g.path("fits")).stream()
                .filter(f -> f.path("seqLen").asInt() == 64).map(f -> f.path("phase").asText() + " " + f.path("regime").asText()).collect(Collectors.joining(", "));
    }

    /** An exported encoder-decoder folder, text or audio. Args: text|audio CONSOLE. */
    static String seq2seqFolder(List<String> args) {
        String kind = args.get(0);
        String console = Json.text(args.get(1));
        JsonNode g = generation();
        Expect.that(g.path("cells").size() == 4, "4 cells", g.path("cells"));
        for (JsonNode c : g.path("cells")) {
            long cross = kvBytes(2, c.path("batch").asInt(), 4, c.path("seqLen").asInt(), 16);
            Expect.that(c.path("crossAttentionCacheBytes").asLong() == cross, "cross-attention bytes as the formula", c);
            Expect.that(c.path("kvCacheBytes").asLong() == kvBytes(2, c.path("batch").asInt(), 4, 8, 16) + cross, "KV bytes, self and cross", c);
            Expect.that(c.at("/encodeMs/p50Ms").asDouble() > 0 && c.at("/ttftMs/p50Ms").asDouble() >= c.at("/encodeMs/p50Ms").asDouble(), "TTFT holds the encoder pass", c);
            Expect.that(c.at("/encodeRoofline/flops").asDouble() > 0 && c.at("/stepRoofline/flops").asDouble() > 0, "the work counted", c);
        }
        Expect.that(new HashSet<>(texts(g.path("fits"), "phase")).equals(Set.of("encode", "prefill", "decode")), "a fit per phase", g.path("fits"));
        Expect.that(console.contains("an encoder pass, then 1 prefill") && console.contains("of which cross-attention"), "the console says the phases");
        return "the " + kind + " encoder-decoder generated; KV bytes (self and cross) as the formula; " + encodes(g, true);
    }

    private static String encodes(JsonNode g, boolean withSource) {
        return list(g.path("cells")).stream().map(c -> String.format("%sbatch %d: encode %.0f us, TTFT %.0f us",
                withSource ? "source " + c.path("seqLen").asInt() + " " : "", c.path("batch").asInt(), c.at("/encodeMs/p50Ms").asDouble() * 1000,
                c.at("/ttftMs/p50Ms").asDouble() * 1000)).collect(Collectors.joining(", "));
    }

    /** Whisper as exported, with fixed frames: batch only. Args: CONSOLE. */
    static String whisper(List<String> args) {
        String console = Json.text(args.get(0));
        JsonNode g = generation();
        List<String> shapes = list(g.path("cells")).stream().map(c -> c.path("seqLen").asInt() + "x" + c.path("batch").asInt()).sorted().toList();
        Expect.that(shapes.equals(List.of("0x1", "0x4")), "batch only", shapes);
        for (JsonNode c : g.path("cells")) {
            Expect.that(c.path("crossAttentionCacheBytes").asLong() == kvBytes(2, c.path("batch").asInt(), 4, 40, 16),
                    "cross-attention over the encoder's 40 fixed frames", c);
            Expect.that(c.at("/encodeMs/p50Ms").asDouble() > 0 && c.at("/ttftMs/p50Ms").asDouble() >= c.at("/encodeMs/p50Ms").asDouble(), "TTFT holds the encoder pass", c);
        }
        Expect.that(console.contains("no axis for the sweep's lengths to bind") && console.contains("seq none (batch only)"), "the console says why batch only");
        return "Whisper as exported (fixed frames) generated batch only: " + encodes(g, false);
    }
}
