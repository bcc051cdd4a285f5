package io.inferbench.ci;

import static io.inferbench.ci.Json.list;
import static io.inferbench.ci.Json.map;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A/B in one run (docs/statistics-and-compare.md), and the rule that every documented command ran. */
final class AbChecks {

    private static final Pattern BASH_BLOCK = Pattern.compile("```bash\n(.*?)```", Pattern.DOTALL);

    private AbChecks() {
    }

    /** Two models A/B'd in one run: its exit code, ab.json, run.json and ab.md agree. Args: RC. */
    static String abModels(List<String> args) throws IOException {
        int rc = Integer.parseInt(args.get(0));
        String runDir = Path.of("results/latest").toRealPath().toString();
        JsonNode run = Json.read(runDir + "/run.json");
        JsonNode result = Json.read(runDir + "/ab.json");
        String decision = result.path("decision").asText();
        Expect.that(result.path("regressed").asBoolean() == (rc == 1), "exit code 1 exactly when ab.json says regressed", rc, result.path("regressed"));
        Expect.that((rc == 4) == decision.equals("undecided") && (rc == 0) == decision.equals("no regression shown"), "the exit code says the decision", rc, decision);
        JsonNode ab = run.path("ab");
        Expect.that(ab.path("decision").asText().equals(decision), "run.json and ab.json say the same decision");
        String md = Json.text(runDir + "/ab.md");
        Expect.that(md.startsWith("# inferbench A/B: " + decision + ": "), "ab.md opens with it", md.lines().findFirst().orElse(""));
        Expect.that(!ab.path("sameSubject").asBoolean() && map(ab.path("differences"), JsonNode::asText).stream().anyMatch(d -> d.startsWith("model: A tiny")),
                "what differs is named", ab.path("differences"));
        Expect.that(ab.path("mode").asText().equals("passes") && list(ab.at("/cells/0/pairs")).stream().allMatch(p -> Json.absent(p.path("bFirst"))),
                "passes is the default for two models");
        int pairs = 0;
        for (JsonNode c : ab.path("cells")) {
            for (JsonNode p : c.path("pairs")) {
                pairs = Math.max(pairs, p.path("pair").asInt());
            }
        }
        Expect.that(run.path("forkJvms").size() == pairs, "one fork JVM per pair, holding both models", run.path("forkJvms").size(), pairs);
        JsonNode cell = result.at("/cells/0");
        Expect.that(cell.path("pairs").asInt() == ab.at("/cells/0/pairs").size() && Json.given(ab.path("stop")), "every pair kept, and why they stopped");
        for (String p : List.of("p50", "p99")) {
            for (String field : List.of("changePercent", "verdict", "regression")) {
                Expect.that(cell.path(p).has(field), "each percentile's change, verdict and regression", p + "." + field);
            }
        }
        Expect.that(map(ab.path("baselineCells"), c -> c.path("model").asText()).equals(List.of("tiny"))
                && map(run.path("cells"), c -> c.path("model").asText()).equals(List.of("tiny-int8")), "A's cells apart from B's");
        Expect.that(!md.contains("Cell[") && !md.contains("TargetCode[") && md.contains("ab-pairs.png"), "ab.md is for people, with its plots");
        return String.format("A/B tiny -> tiny-int8: p50 %+.1f%% %s after %d pairs (%s); exit code %d agrees", cell.at("/p50/changePercent").asDouble(),
                cell.at("/p50/verdict").asText(), cell.path("pairs").asInt(), cell.path("stop").asText(), rc);
    }

    /** The lines of README.md's and docs' bash blocks, comments and blank lines left out. */
    static Set<String> documented(List<Path> files) {
        Set<String> out = new LinkedHashSet<>();
        for (Path f : files) {
            Matcher m = BASH_BLOCK.matcher(Json.text(f.toString()));
            while (m.find()) {
                m.group(1).lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(out::add);
            }
        }
        return out;
    }

    /** Every documented command ran verbatim, and nothing undocumented did. Args: RAN_FILE DOC... */
    static String documentedCommands(List<String> args) {
        Set<String> ran = new TreeSet<>(Json.text(args.get(0)).lines().toList());
        List<Path> docs = new ArrayList<>();
        args.subList(1, args.size()).forEach(a -> docs.add(Path.of(a)));
        Set<String> documented = documented(docs);
        Set<String> missing = new TreeSet<>(documented);
        missing.removeAll(ran);
        Set<String> extra = new TreeSet<>(ran);
        extra.removeAll(documented);
        Expect.that(missing.isEmpty(), "documented but not run by .ci/run", missing);
        Expect.that(extra.isEmpty(), "run by .ci/run but not documented", extra);
        return "all " + documented.size() + " documented commands ran verbatim";
    }
}
