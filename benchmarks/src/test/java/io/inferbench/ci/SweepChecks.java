package io.inferbench.ci;

import static io.inferbench.ci.Json.absent;
import static io.inferbench.ci.Json.given;
import static io.inferbench.ci.Json.list;
import static io.inferbench.ci.Json.map;
import static io.inferbench.ci.Json.texts;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** The README's default run, compare and its gate, and the user's own models (docs/models.md). */
final class SweepChecks {

    private static final Pattern PROGRESS = Pattern.compile("\\[inferbench\\] run \\d+ of \\d+:.*");
    private static final List<String> PERCENTILES = List.of("p50Ms", "p90Ms", "p95Ms", "p99Ms", "p999Ms", "maxMs");

    private SweepChecks() {
    }

    /** The README's {@code mvn verify}. Args: CONSOLE. */
    static String defaultRun(List<String> args) {
        List<String> lines = Json.text(args.get(0)).lines().toList();
        int start = 0;
        while (start < lines.size() && !lines.get(start).startsWith("[inferbench] sweep of")) {
            start++;
        }
        Expect.that(start < lines.size(), "the console shows the sweep's first line");
        List<String> sweep = lines.subList(start, lines.size());
        Expect.that(lines.size() < 150, "mvn verify prints under 150 console lines, Maven's included", lines.size());
        Expect.that(lines.stream().noneMatch(l -> l.contains("REMEMBER") || l.contains("# JMH version") || l.contains("SLF4J")
                || l.contains("ms/op")), "no JMH or SLF4J output on the console");
        List<String> progress = sweep.stream().filter(l -> PROGRESS.matcher(l).matches()).toList();
        Expect.that(!progress.isEmpty() && progress.stream().allMatch(l -> l.contains("elapsed")), "progress lines with elapsed time");

        JsonNode run = Json.latestRun();
        Expect.that(run.path("schemaVersion").asInt() == 11, "schema version 11", run.path("schemaVersion"));
        List<JsonNode> cells = list(run.path("cells"));
        Expect.that(cells.size() == 48 && cells.stream().allMatch(c -> c.path("status").asText().equals("ok")),
                "2 engines x 3 seq x 8 batch, all measured", cells.size());
        double minMs = run.at("/config/measurePolicy/stop/minMs").asDouble();
        for (JsonNode c : cells) {
            List<Double> values = PERCENTILES.stream().map(k -> c.path("latencyMs").path(k).asDouble()).toList();
            List<Double> sorted = values.stream().sorted().toList();
            Expect.that(values.stream().allMatch(v -> v > 0) && values.equals(sorted), "percentiles positive and in order", values);
            Expect.that(c.path("forkHistogramsNs").size() == 3 && c.path("forkRuns").size() == 3, "3 forks per cell");
            Expect.that(!c.has("coldStarts"), "one JVM per model: its cold start is the JVM's, in forkJvms");
            Expect.that(map(c.path("forkRuns"), f -> f.path("round").asInt()).stream().sorted().toList().equals(List.of(1, 2, 3)),
                    "rounds 1, 2 and 3");
            long passes = 0;
            for (JsonNode f : c.path("forkRuns")) {
                JsonNode w = f.path("warmup");
                JsonNode m = f.path("measurement");
                String wEnd = w.path("end").asText();
                String mEnd = m.path("end").asText();
                Expect.that(Set.of("steady", "time cap").contains(wEnd) && Set.of("precise", "time cap").contains(mEnd),
                        "why warm-up and measurement stopped", f);
                Expect.that(mEnd.equals("time cap") || (m.path("p50HalfWidthPercent").asDouble() <= 2 && m.path("wallMs").asDouble() >= minMs),
                        "precise means within 2%", f);
                Expect.that(m.path("passesMs").asDouble() > 0 && m.path("passesMs").asDouble() <= m.path("wallMs").asDouble()
                        && f.path("firstPassMs").asDouble() > 0, "measured time within the wall, a first pass timed", f);
                passes += m.path("passes").asLong();
            }
            Expect.that(c.at("/latencyMs/count").asLong() == passes && passes == c.path("measuredPasses").asLong(),
                    "a cell's count is its forks' passes", c.at("/latencyMs/count"), passes, c.path("measuredPasses"));
        }
        Expect.that(run.path("fits").size() == 6 && list(run.path("fits")).stream().allMatch(f -> f.has("borderline")),
                "a verdict per series, labelled");

        // Each fork JVM says which job it ran: the rounds' (a JVM the sweep stopped as slow has its remaining cells run in
        // the next one), then the forks set aside after the rounds (departed or doubted), measured again in JVMs of their own.
        List<JsonNode> jvms = list(run.path("forkJvms"));
        List<JsonNode> stopped = jvms.stream().filter(j -> j.path("error").asText("").startsWith("stopped by the sweep as slow")).toList();
        Expect.that(jvms.stream().allMatch(j -> j.path("exitCode").asInt() == 0 || stopped.contains(j)), "no fork JVM failed");
        List<JsonNode> rounds = jvms.stream().filter(j -> j.path("job").asText().startsWith("round")).toList();
        Expect.that(rounds.equals(jvms.subList(0, rounds.size())), "the rounds' JVMs come first");
        Expect.that(rounds.stream().filter(j -> !j.path("job").asText().equals("round")).count() == stopped.size(),
                "a fresh JVM for the rest of each one stopped as slow");
        for (int r = 1; r <= 3; r++) {
            int round = r;
            Expect.that(rounds.stream().filter(j -> j.path("round").asInt() == round && j.path("cells").size() == 24).count() == 2,
                    "one JVM per engine and round", round);
        }
        Set<List<String>> orders = new HashSet<>();
        rounds.stream().filter(j -> j.path("cells").size() == 24).forEach(j -> orders.add(map(j.path("cells"), JsonNode::asText)));
        Expect.that(orders.size() == 6, "a seeded order of its own in every round", orders.size());
        int setAside = cells.stream().mapToInt(c -> c.path("departedForks").size()).sum();
        Expect.that((jvms.size() > rounds.size()) == (setAside > 0), "JVMs after the rounds only for set-aside forks", setAside);
        Expect.that(texts(run.path("stages"), "name").equals(List.of("preflight", "sweep", "analysis", "resources", "profile", "report")),
                "the stages in order", run.path("stages"));
        Expect.that(list(run.path("stages")).stream().allMatch(s -> s.path("status").asText().equals("ok")), "every stage finished", run.path("stages"));
        JsonNode t = run.path("timing");
        double parts = t.path("preflightSeconds").asDouble() + t.path("sweepSeconds").asDouble() + t.path("profileSeconds").asDouble()
                + t.path("reportSeconds").asDouble() + t.path("otherSeconds").asDouble();
        double wall = t.path("wallSeconds").asDouble();
        Expect.that(Math.abs(parts - wall) < 0.01 * wall + 0.5, "the parts add up to the wall", t);
        Expect.that(t.path("jvmStarts").asInt() == jvms.size() && t.path("timedShareOfSweep").asDouble() > 0
                && t.path("timedShareOfSweep").asDouble() <= 1, "JVM starts counted, a timed share", t);
        Expect.that(lines.stream().anyMatch(l -> l.startsWith("[inferbench] time: ")), "where the time went, as the last line");
        String log = Json.text("results/latest/console.log");
        long runLines = Pattern.compile("\\[inferbench\\] run \\d+ of 144:").matcher(log).results().count();
        Expect.that(log.contains("# JMH version") && runLines == 144, "console.log keeps JMH's output and every run", runLines);
        for (String name : List.of("report.md", "plots/latency-onnxruntime-cpu-tiny.png", "plots/latency-djl-cpu-tiny.svg",
                "plots/roofline-onnxruntime-cpu.png", "plots/roofline-djl-cpu.png")) {
            Expect.that(Json.nonEmptyFile("results/latest/" + name), "written", name);
        }

        JsonNode p = run.path("profile");
        List<JsonNode> calibrations = list(p.path("calibrations"));
        Expect.that(new HashSet<>(texts(p.path("calibrations"), "backend")).equals(Set.of("onnxruntime", "djl")), "peaks per engine");
        Expect.that(calibrations.stream().allMatch(c -> c.path("peakFlopsPerSecond").asDouble() > 1e9
                && c.path("peakBytesPerSecond").asDouble() > 1e9 && c.path("callFloorMs").asDouble() > 0), "peaks measured", calibrations);
        Expect.that(calibrations.stream().filter(c -> c.path("peakIntegerOpsPerSecond").asDouble(0) > 1e9)
                .map(c -> c.path("backend").asText()).toList().equals(List.of("onnxruntime")), "an int8 roof where integer products run");
        Expect.that(p.path("floors").size() == 2 && list(p.path("floors")).stream().allMatch(f -> given(f.path("passMs"))
                && f.path("overheadMs").asDouble() > 0), "a fixed cost per engine and model");
        Expect.that(p.path("cells").size() == 48, "every cell on the roofline");
        double limit = p.at("/thresholds/maxOverPeakPercent").asDouble();
        Set<String> classes = Set.of("compute-bound", "memory-bound", "overhead-bound", "in between", "unreliable");
        for (JsonNode c : p.path("cells")) {
            Expect.that(given(c.path("flops")) && given(c.path("bytes")), "the built-in's work is counted on both engines", c);
            Expect.that(classes.contains(c.path("rooflineClass").asText()), "a roofline class", c.path("rooflineClass"));
            for (String k : List.of("flopsPercentOfPeak", "bytesPercentOfPeak")) {
                Expect.that(absent(c.path(k)) || c.path(k).asDouble() <= limit, "no share above the tolerance printed", k, c);
            }
            if (c.path("backend").asText().equals("onnxruntime")) {
                double shares = 0;
                for (JsonNode o : c.path("opShares")) {
                    shares += o.path("sharePercent").asDouble();
                }
                Expect.that(given(c.path("opShares")) && Math.abs(shares - 100) < 1e-6, "op shares per ONNX Runtime cell", shares);
            }
        }
        Expect.that(p.path("crossChecks").size() == 6 && list(p.path("crossChecks")).stream()
                .allMatch(c -> c.path("explanation").asText().length() > 40), "every verdict cross-checked");
        String report = Json.text("results/latest/report.md");
        Expect.that(report.contains("Where the time goes") && report.contains("## Where the wall time went"),
                "the profile and the wall time in report.md");
        return String.format("mvn verify printed %d lines (%d from the sweep, %d progress lines); 48 cells with ordered percentiles, "
                        + "verdicts, report and plots; peaks, fixed costs, 48 cells on the roofline, 6 cross-checks; %d fork JVMs "
                        + "(%d stopped as slow, %d measuring %d set-aside fork(s) again); measured passes %.0f%% of the sweep, wall %.0f s",
                lines.size(), sweep.size(), progress.size(), jvms.size(), stopped.size(), jvms.size() - rounds.size(), setAside,
                100 * t.path("timedShareOfSweep").asDouble(), wall);
    }

    /**
     * The exit code and compare.json agree: 1 exactly when a cell regressed, 4 when none did and some cell is
     * undecided, 0 only when every cell ruled a regression out. Args: RC COMPARE_JSON.
     */
    static String compareGate(List<String> args) {
        int rc = Integer.parseInt(args.get(0));
        String path = args.get(1);
        JsonNode c = Json.read(path);
        boolean regressed = c.path("regressed").asBoolean();
        Expect.that(regressed == (rc == 1), "exit code 1 exactly when compare.json says regressed", rc, regressed);
        String decision = c.at("/gate/decision").asText();
        Expect.that((rc == 4) == decision.equals("undecided") && (rc == 0) == decision.equals("no regression shown"),
                "the exit code says the gate's decision", rc, decision);
        String md = Json.text(path.replace("compare.json", "compare.md"));
        Expect.that(md.startsWith("# inferbench compare: " + decision + ": "), "compare.md opens with the decision", md.lines().findFirst().orElse(""));
        Expect.that(regressed == (c.path("regressedCells").asInt() > 0), "regressed flag and count agree");
        for (JsonNode row : c.path("rows")) {
            for (String p : List.of("p50", "p99")) {
                JsonNode e = row.path(p);
                if (e.path("notResolved").asBoolean()) {
                    Expect.that(!e.has("ciLowPercent"), "an unresolved change has no interval", p, row.path("batch"));
                } else {
                    Expect.that(e.path("ciLowPercent").asDouble() > -100 && e.path("degreesOfFreedom").asDouble() > 2,
                            "a supported interval", e);
                }
            }
        }
        return String.format("%s: %d cells, %d regressed, %d not resolved, gate: %s; exit code %d agrees", path, c.path("rows").size(),
                c.path("regressedCells").asInt(), c.path("notResolved").asInt(), c.at("/gate/headline").asText(), rc);
    }

    /** A TorchScript file on DJL: its work unknown, and said so. No args. */
    static String torchScriptWorkUnknown(List<String> args) {
        JsonNode p = Json.latestRun().path("profile");
        for (JsonNode c : p.path("cells")) {
            Expect.that(absent(c.path("flops")) && c.path("workNote").asText().contains("unknown"),
                    "a TorchScript file's work is unknown, and said so", c);
            Expect.that(Set.of("unknown", "overhead-bound").contains(c.path("rooflineClass").asText()), "no class from unknown work", c);
        }
        return "the TorchScript model's work is reported unknown, with the reason";
    }

    /** The image CNN: batch only, real .npy rows, a fitted series. Args: CONSOLE. */
    static String imageCnn(List<String> args) {
        JsonNode r = Json.latestRun();
        String console = Json.text(args.get(0));
        List<JsonNode> cells = list(r.path("cells"));
        Expect.that(cells.stream().allMatch(c -> c.path("seqLen").asInt() == 0)
                && cells.stream().map(c -> c.path("batch").asInt()).sorted().toList().equals(List.of(1, 2, 4, 8)), "the CNN runs batch only");
        JsonNode m = r.at("/config/models/0/inputs");
        Expect.that(absent(m.path("seqAxis")) && m.path("batchAxis").asText().equals("batch") && given(m.path("specSha256")), "the spec", m);
        Expect.that(m.at("/inputs/0/name").asText().equals("pixel_values")
                && m.at("/inputs/0/values").asText().startsWith("npy pixels.npy [32,3,64,64] sha256 "), "rows from pixels.npy", m);
        JsonNode fit = r.at("/fits/0");
        Expect.that(map(fit.path("batches"), JsonNode::asInt).equals(List.of(1, 2, 4, 8)) && fit.path("marginalCostMsPerSample").asDouble() > 0,
                "the CNN's batch-only series is fitted", fit);
        // The regime is the machine's to decide: on a quiet machine compute-bound; on a shared runner busy for some cells
        // and not others, the series may be too noisy or not monotonic, which the run must then say with its reason. Any
        // other inconclusive reason (too few batch sizes) means the fit went wrong.
        String regime = fit.path("regime").asText();
        String reason = fit.path("reason").asText("");
        Expect.that(!regime.isEmpty() && (!regime.equals("inconclusive") || reason.startsWith("too noisy") || reason.startsWith("not monotonic")),
                "the CNN gets a verdict", regime, reason);
        Expect.that(list(r.at("/profile/cells")).stream().allMatch(c -> c.path("flops").asDouble() > 0
                && !c.path("workNote").asText().contains("without a FLOP rule")), "the roofline counts the convolutions");
        Expect.that(console.contains("| batch only") && !console.contains("seq 0"), "no invented sequence length on the console");
        return String.format("the image CNN ran batch only on .npy rows: %s, %.1f MFLOP at batch 1",
                regime + (regime.equals("inconclusive") ? " (" + reason + ")" : ""), r.at("/profile/cells/0/flops").asDouble() / 1e6);
    }

    /** The audio encoder: its frames axis swept, then served. No args. */
    static String audioEncoder(List<String> args) {
        JsonNode r = Json.latestRun();
        JsonNode m = r.at("/config/models/0/inputs");
        Expect.that(m.path("seqAxis").asText().equals("frames") && texts(m.path("inputs"), "name").equals(List.of("input_features", "speaker")),
                "frames bound, both inputs", m);
        Expect.that(map(m.path("inputs"), i -> map(i.path("shape"), JsonNode::asText))
                .equals(List.of(List.of("batch", "frames", "80"), List.of("batch", "16"))), "the shapes", m);
        List<JsonNode> fits = list(r.path("fits"));
        Expect.that(fits.stream().map(f -> f.path("seqLen").asInt()).distinct().sorted().toList().equals(List.of(50, 200))
                && fits.stream().allMatch(f -> given(f.path("regime"))), "a fit per length", fits);
        List<JsonNode> points = list(r.at("/serving/points"));
        Expect.that(!points.isEmpty() && points.stream().allMatch(p -> p.path("failed").asInt() == 0), "serving built its requests from the generators");
        List<String> regimes = new ArrayList<>();
        fits.forEach(f -> regimes.add(f.path("seqLen").asInt() + ": " + f.path("regime").asText()));
        return "the audio encoder swept frames " + String.join(", ", regimes) + "; serving ran";
    }

    /** The TorchScript module on DJL from its input spec. No args. */
    static String pixelModule(List<String> args) {
        JsonNode r = Json.latestRun();
        JsonNode inputs = r.at("/config/models/0/inputs/inputs");
        Expect.that(map(inputs, i -> i.path("name").asText() + " " + map(i.path("shape"), JsonNode::asText))
                .equals(List.of("pixel_values [batch, 3, 64, 64]", "projection [256, 3]")), "the spec's inputs", inputs);
        List<JsonNode> cells = list(r.path("cells"));
        Expect.that(cells.stream().allMatch(c -> c.path("backend").asText().equals("djl") && c.path("seqLen").asInt() == 0), "DJL, batch only");
        Expect.that(given(r.at("/fits/0/regime")), "a regime", r.path("fits"));
        return "the TorchScript module ran on DJL from its spec: " + r.at("/fits/0/regime").asText();
    }
}
