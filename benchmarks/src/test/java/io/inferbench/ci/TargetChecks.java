package io.inferbench.ci;

import static io.inferbench.ci.Json.list;
import static io.inferbench.ci.Json.map;
import static io.inferbench.ci.Json.texts;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Your own code as a target (docs/targets.md), and your own project through the plugin (docs/your-project.md). */
public final class TargetChecks {

    private static final String YOUR_PROJECT = "examples/your-project/results/latest";
    private static final String HARNESS_COPIES = "; the harness's own copies";

    private TargetChecks() {
    }

    /** The text service: its stages add up to the call, its code hashed, served with its stages. No args. */
    static String textService(List<String> args) throws IOException, NoSuchAlgorithmException {
        JsonNode run = Json.latestRun();
        JsonNode t = run.at("/config/targets");
        Expect.that(texts(t, "className").equals(List.of("example.targets.TextService")), "the target named", t);
        String classes = classesSha256(Path.of("examples/targets/target/classes"));
        Expect.that(t.at("/0/classpath/0/sha256").asText().equals(classes), "the classes' hash: each file's relative path and bytes, in path order");
        Expect.that(t.at("/0/sha256").asText().equals(sha256(classes.getBytes(StandardCharsets.UTF_8))), "the code's hash is its class path's");
        List<JsonNode> cells = list(run.path("cells"));
        Expect.that(cells.size() == 8 && cells.stream().allMatch(c -> c.path("status").asText().equals("ok")
                && c.path("backend").asText().equals("example.targets.TextService")), "8 cells measured");
        for (JsonNode c : cells) {
            List<JsonNode> stages = list(c.at("/phases/stages"));
            Expect.that(texts(c.at("/phases/stages"), "name").equals(List.of("tokenize", "forward", "postprocess", "serialize", "(outside any stage)")),
                    "the service's stages", stages);
            double total = stages.stream().mapToDouble(s -> s.path("meanMsPerUnit").asDouble()).sum();
            double mean = c.at("/latencyMs/meanMs").asDouble();
            Expect.that(Math.abs(total - mean) <= 0.01 * mean, "the rows add up to the call", total, mean);
            Expect.that(Math.abs(stages.stream().mapToDouble(s -> s.path("sharePercent").asDouble()).sum() - 100) < 1, "the shares add up to 100%");
            Expect.that(stages.subList(0, stages.size() - 1).stream().allMatch(s -> s.at("/latencyMs/count").asLong() == c.path("measuredPasses").asLong()),
                    "one mark of each stage per call");
            double markNs = c.at("/phases/markCostNs").asDouble();
            Expect.that(markNs > 0 && markNs < 1000, "a mark costs under a microsecond", markNs);
        }
        Expect.that(run.path("fits").size() == 2, "a fit per length");
        String report = Json.text("results/latest/report.md");
        Expect.that(report.contains("## Stages of the call")
                && report.contains("| batch | call mean (ms) | tokenize | forward | postprocess | serialize | (outside any stage) |"), "the stages in report.md");
        Expect.that(report.contains("| target example.targets.TextService | code SHA-256 `" + t.at("/0/sha256").asText() + "`"), "the code's hash in report.md");
        JsonNode point = list(run.at("/serving/points")).stream().filter(p -> p.path("purpose").asText().equals("point")).findFirst().orElseThrow();
        Expect.that(point.path("sent").asLong() == point.path("completed").asLong() + point.path("failed").asLong() && point.path("completed").asLong() > 0,
                "served, nothing lost", point);
        for (String k : List.of("prepare", "forward.tokenize", "forward.forward", "forward.postprocess", "forward.serialize", "forward.(outside any stage)")) {
            Expect.that(point.path("stagesMs").has(k), "each stage served", k, point.path("stagesMs"));
        }
        JsonNode mixed = run.at("/workload/engines/0/mixedStream/stagesMs");
        Expect.that(mixed.has("forward.tokenize") && !mixed.has("tokenize"), "the target tokenizes the text itself");
        String shares = cells.stream().filter(c -> c.path("seqLen").asInt() == 64 && Set.of(1, 8).contains(c.path("batch").asInt()))
                .sorted((a, b) -> a.path("batch").asInt() - b.path("batch").asInt())
                .map(c -> "batch " + c.path("batch").asInt() + ": " + list(c.at("/phases/stages")).stream()
                        .map(s -> String.format("%s %.0f%%", s.path("name").asText(), s.path("sharePercent").asDouble())).collect(Collectors.joining(", ")))
                .collect(Collectors.joining("; "));
        return String.format("the text service's stages, share of the call at seq 64: %s; a mark costs %.0f ns; open loop at 100 requests/s: p50 %.3f ms, "
                        + "the target's forward %.3f ms", shares, cells.get(0).at("/phases/markCostNs").asDouble(),
                point.at("/latencyFromIntendedMs/p50Ms").asDouble(), point.at("/stagesMs/forward.forward/p50Ms").asDouble());
    }

    /**
     * A class folder's hash as the harness takes it (the rule docs/targets.md states): each regular file's path relative
     * to the folder, a NUL, its bytes and a NUL, in path order.
     */
    public static String classesSha256(Path root) throws IOException, NoSuchAlgorithmException {
        MessageDigest h = MessageDigest.getInstance("SHA-256");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(Files::isRegularFile).sorted((a, b) -> a.toString().compareTo(b.toString())).toList();
        }
        for (Path f : files) {
            h.update(root.relativize(f).toString().getBytes(StandardCharsets.UTF_8));
            h.update((byte) 0);
            h.update(Files.readAllBytes(f));
            h.update((byte) 0);
        }
        return HexFormat.of().formatHex(h.digest());
    }

    private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    /** DJL's Predictor with a Translator as a target: its stages per text and per call. No args. */
    static String djlClassifier(List<String> args) {
        List<JsonNode> cells = list(Json.latestRun().path("cells"));
        Expect.that(cells.size() == 4 && cells.stream().allMatch(c -> c.path("status").asText().equals("ok")), "4 cells measured",
                map(Json.latestRun().path("cells"), c -> c.path("error").asText(null)));
        for (JsonNode c : cells) {
            JsonNode stages = c.at("/phases/stages");
            Expect.that(texts(stages, "name").equals(List.of("processInput", "processOutput", "serialize", "(outside any stage)")), "the translator's stages", stages);
            Expect.that(stages.at("/0/latencyMs/count").asLong() == c.path("measuredPasses").asLong() * c.path("batch").asLong(),
                    "the translator's processInput once per text", c.path("batch"));
            Expect.that(stages.at("/2/latencyMs/count").asLong() == c.path("measuredPasses").asLong(), "serialize once per call");
        }
        return "DJL's Predictor with a Translator: " + cells.stream().sorted((a, b) -> a.path("batch").asInt() - b.path("batch").asInt())
                .map(c -> String.format("batch %d: processInput %.0f%%, DJL's batching and forward %.0f%%", c.path("batch").asInt(),
                        c.at("/phases/stages/0/sharePercent").asDouble(), c.at("/phases/stages/3/sharePercent").asDouble()))
                .collect(Collectors.joining("; "));
    }

    /** The example project's own code on its own class path, at its own library versions beside the harness's. No args. */
    static String yourProject(List<String> args) {
        JsonNode run = Json.read(YOUR_PROJECT + "/run.json");
        List<JsonNode> cells = list(run.path("cells"));
        Expect.that(cells.size() == 3 && cells.stream().allMatch(c -> c.path("status").asText().equals("ok")), "3 cells measured",
                map(run.path("cells"), c -> c.path("error").asText(null)));
        JsonNode target = run.at("/config/targets/0");
        List<String> jars = map(target.path("classpath"), e -> e.path("path").asText().substring(e.path("path").asText().lastIndexOf('/') + 1));
        Expect.that(target.path("className").asText().equals("com.example.MiniLmEmbedder") && jars.contains("onnxruntime-1.20.0.jar"), "the project's class path", jars);
        Expect.that(jars.stream().noneMatch(j -> j.startsWith("inferbench-")), "the harness's own jars are not the user's code", jars);
        Set<String> libraries = new HashSet<>(map(target.path("classpath"), e -> e.path("library").asText(null)));
        List<String> mine = List.of("com.microsoft.onnxruntime:onnxruntime:1.20.0", "com.fasterxml.jackson.core:jackson-databind:2.21.3",
                "com.google.protobuf:protobuf-java:4.33.5", "org.apache.commons:commons-lang3:3.17.0");
        Expect.that(libraries.containsAll(mine), "the project's own versions on its class path, none refused", libraries);
        for (JsonNode c : cells) {
            String version = c.path("engineVersion").asText();
            String separator = HARNESS_COPIES + ", loaded apart in its layer: ";
            int at = version.indexOf(separator);
            String ours = at < 0 ? version : version.substring(0, at);
            String harness = at < 0 ? "" : version.substring(at + separator.length());
            Expect.that(mine.stream().allMatch(ours::contains), "the timed code loaded the project's versions", version);
            Expect.that(harness.contains("com.fasterxml.jackson.core:jackson-databind:2.22.3"), "and the harness its own", version);
        }
        String jvm = run.at("/config/jvmCommand").asText();
        Expect.that(jvm.contains("inferbench-core") && !jvm.contains("onnxruntime-1.23.2") && !jvm.contains("inferbench-engine"),
                "a target run alone puts no engine module on the harness's class path");
        return "the user's project timed its own code on its own class path " + jars
                + ", at its own versions of Jackson, protobuf and Commons Lang beside the harness's, with no engine module of the harness";
    }

    /** An A/A run of the example project through the plugin, A given as its classes folder. Args: RC. */
    static String yourProjectAa(List<String> args) throws IOException {
        int rc = Integer.parseInt(args.get(0));
        String runDir = Path.of(YOUR_PROJECT).toRealPath().toString();
        JsonNode run = Json.read(runDir + "/run.json");
        JsonNode ab = run.path("ab");
        String decision = ab.path("decision").asText();
        Expect.that((rc == 0) == decision.equals("no regression shown") && Set.of("no regression shown", "undecided").contains(decision),
                "an A/A run's exit code says its decision", rc, decision);
        Expect.that(ab.path("sameSubject").asBoolean() && ab.path("differences").isEmpty(), "the same build twice is an A/A run", ab.path("differences"));
        Expect.that(ab.path("mode").asText().equals("passes"), "a target's two builds alternate in one fork JVM by default", ab.path("mode"));
        Expect.that(run.path("forkJvms").size() == ab.at("/cells/0/pairs").size(), "one fork JVM per pair");
        Expect.that(run.at("/cells/0/engineVersion").asText().contains("loaded once for both sides (the jars they share): "), "the shared jars loaded once",
                run.at("/cells/0/engineVersion"));
        JsonNode a = ab.at("/subjects/0/targets/0");
        JsonNode b = ab.at("/subjects/1/targets/0");
        List<String> jars = map(a.path("classpath"), e -> e.path("path").asText().substring(e.path("path").asText().lastIndexOf('/') + 1));
        Expect.that(jars.contains("onnxruntime-1.20.0.jar"), "the plugin gives A the project's libraries", jars);
        Expect.that(a.path("sha256").asText().equals(b.path("sha256").asText()), "the same code on both sides");
        JsonNode result = Json.read(runDir + "/ab.json");
        JsonNode cell = result.at("/cells/0");
        Expect.that(!result.path("regressed").asBoolean() && result.path("cells").size() == 1, "no regression, one cell");
        Expect.that(ab.at("/cells/0/pairs").size() == cell.path("pairs").asInt() && cell.path("pairs").asInt() >= 1, "run.json keeps every pair ab.json used");
        Expect.that(Files.exists(Path.of(runDir, "baseline/run.json")) && Files.exists(Path.of(runDir, "ab.md")), "A's run and ab.md written");
        return String.format("an A/A run through the plugin: %d pairs, p50 %s, gate %s (%s), stopped: %s; exit code %d", cell.path("pairs").asInt(),
                cell.at("/p50/verdict").asText(), cell.at("/gate/decision").asText(), cell.at("/gate/reason").asText(), cell.path("stop").asText(), rc);
    }

    /** A target tokenizing with DJL's tokenizers from its own class path. No args. */
    static String tokenizingEmbedder(List<String> args) {
        JsonNode cells = Json.read(YOUR_PROJECT + "/run.json").path("cells");
        Expect.that(cells.size() == 1, "one cell", cells.size());
        JsonNode cell = cells.get(0);
        Expect.that(cell.path("status").asText().equals("ok") && cell.path("backend").asText().equals("com.example.TokenizingEmbedder"),
                "the tokenizing target measured", cell.path("error"));
        String version = cell.path("engineVersion").asText();
        String ours = version.contains(HARNESS_COPIES) ? version.substring(0, version.indexOf(HARNESS_COPIES)) : version;
        Expect.that(ours.contains("ai.djl.huggingface:tokenizers:0.31.0"), "the timed code tokenized with the project's own DJL", ours);
        return "a target tokenizing with DJL's Hugging Face tokenizers 0.31.0 from its own class path ran (its natives found through its "
                + "context class loader), beside the harness's 0.36.0";
    }

    /** The archetype's generated project: verify measured its target and a model. No args. */
    static String archetypeProject(List<String> args) throws IOException {
        Path runs = Path.of("target/first-report/my-inference/results");
        List<String> made;
        try (Stream<Path> list = Files.list(runs)) {
            made = list.map(p -> p.getFileName().toString()).filter(n -> Character.isDigit(n.charAt(0))).sorted().toList();
        }
        Expect.that(made.size() == 2, "verify runs the target and the model benchmark", made);
        JsonNode target = Json.read(runs.resolve(made.get(0)).resolve("run.json").toString());
        JsonNode model = Json.read(runs.resolve(made.get(1)).resolve("run.json").toString());
        Expect.that(texts(target.path("cells"), "status").equals(List.of("ok", "ok", "ok"))
                && target.at("/cells/0/backend").asText().equals("com.example.inference.MiniLmEmbedder"), "the target's 3 cells", target.path("cells"));
        Expect.that(texts(model.path("cells"), "status").equals(List.of("ok", "ok", "ok")) && model.at("/cells/0/backend").asText().equals("onnxruntime"),
                "the model's 3 cells", model.path("cells"));
        Expect.that(Files.exists(runs.resolve(made.get(0)).resolve("report.md")) && Files.exists(runs.resolve(made.get(1)).resolve("report.md")), "both reports");
        return "the archetype's project measured its target and a model: " + made;
    }
}
