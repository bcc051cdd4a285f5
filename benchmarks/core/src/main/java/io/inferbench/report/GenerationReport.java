package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.measure.LatencySummary;
import io.inferbench.results.GenerationResult;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Generation's tables: per cell, TTFT and step latency, tokens/s and the cache; each phase's verdict; the token agreement. */
public final class GenerationReport {
    private GenerationReport() {
    }

    /** Whether any cell is an encoder-decoder's (its encoder pass timed). */
    private static boolean encoderDecoder(GenerationResult g) {
        return g.cells().stream().anyMatch(c -> c.encodeMs() != null);
    }

    private static String sampling(GenerationResult g) {
        return g.sampling() == null || g.sampling().equals("greedy") ? "greedy" : "sampled (" + g.sampling() + ", seeded)";
    }

    /** The console's tables, after the last round. */
    public static void print(GenerationResult g, PrintStream out) {
        out.println();
        out.println(Text.f("Generation: %d new tokens per sequence (%s1 prefill + %d decode steps), %s picks, %d round(s); p50 / p99 "
                + "in ms", g.newTokens(), encoderDecoder(g) ? "an encoder pass, then " : "", g.newTokens() - 1, sampling(g), g.rounds()));
        out.println(Text.f("%-12s %-6s %-14s %6s %5s %17s %17s %8s %9s %9s %10s %10s", "engine", "device", "model", "prompt", "batch",
                "TTFT p50/p99", "step p50/p99", "pick", "hand-off", "tok/s/seq", "tok/s", "KV cache"));
        for (GenerationResult.Cell c : g.cells()) {
            out.println(Text.f("%-12s %-6s %-14s %6s %5d %17s %17s %8s %9s %9.1f %10.1f %10s", c.backend(), c.device(),
                    Text.shortModelName(c.model()), prompt(c.seqLen()), c.batch(), pair(c.ttftMs()), pair(c.stepMs()),
                    c.pickMs() == null ? "-" : Text.f("%.3f", c.pickMs().p50Ms()),
                    c.handOffMs() == null ? "-" : Text.f("%.3f", c.handOffMs().p50Ms()), c.tokensPerSecondPerSequence(),
                    c.tokensPerSecond(), bytes(c.kvCacheBytes())));
        }
        for (GenerationResult.Cell c : g.cells()) {
            if (c.encodeMs() != null) {
                out.println(Text.f("  %s %s batch %d: encoder p50 %.3f ms (inside TTFT); KV cache %s, of which cross-attention %s "
                        + "(over the source, fixed after the first decoder pass)", Text.shortModelName(c.model()), c.backend(), c.batch(),
                        c.encodeMs().p50Ms(), bytes(c.kvCacheBytes()), bytes(c.crossAttentionCacheBytes())));
            }
        }
        g.failures().forEach(f -> out.println("  FAILED: " + f));
        out.println();
        out.println("Verdicts by phase (latency against batch, the sweep's rule; roofline at the largest batch):");
        for (GenerationResult.Fit f : g.fits()) {
            out.println("  " + verdict(f) + roofline(g, f));
        }
        if (!g.agreement().isEmpty()) {
            out.println();
            out.println("Greedy tokens:");
            for (GenerationResult.TokenAgreement a : g.agreement()) {
                out.println(Text.f("  %s vs %s, %s prompt %d batch %d: %s", a.candidate(), a.reference(), Text.shortModelName(a.model()),
                        a.seqLen(), a.batch(), a.tokensMatch() ? "all " + a.newTokens() + " tokens match"
                                : "first mismatch at token " + a.firstMismatchStep()));
            }
        }
    }

    static String verdict(GenerationResult.Fit f) {
        return Text.f("%s %s %s prompt %s, %s: %s%s", f.backend(), f.device(), Text.shortModelName(f.model()), prompt(f.seqLen()), f.phase(),
                f.regime().label(), Boolean.TRUE.equals(f.borderline()) ? ", borderline" : "")
                + (f.rho() == null ? "" : f.rhoLow() == null ? Text.f(" (rho %.3f, no interval from %d batches)", f.rho(),
                f.batches().size()) : Text.f(" (rho %.3f [%.3f, %.3f])", f.rho(), f.rhoLow(), f.rhoHigh()));
    }

    private static String roofline(GenerationResult g, GenerationResult.Fit f) {
        GenerationResult.Cell largest = g.cells().stream().filter(c -> c.backend().equals(f.backend()) && c.device().equals(f.device())
                && c.model().equals(f.model()) && c.seqLen() == f.seqLen()).max(java.util.Comparator.comparingInt(GenerationResult.Cell::batch))
                .orElse(null);
        if (largest == null) {
            return "";
        }
        GenerationResult.PhaseRoofline r = f.phase().equals("prefill") ? largest.prefillRoofline() : largest.stepRoofline();
        if (r == null) {
            return "; roofline: not placed (this model's work is not counted, or the run ended before the phases were placed)";
        }
        return Text.f("; roofline %s at batch %d (%s of the FLOP roof, %s of the memory roof)", r.rooflineClass(), largest.batch(),
                percent(r.percentOfFlopRoof()), percent(r.percentOfBandwidth()));
    }

    private static String percent(Double value) {
        return value == null ? "-" : Text.f("%.0f%%", value);
    }

    private static String pair(LatencySummary s) {
        return s == null ? "-" : Text.f("%.2f / %.2f", s.p50Ms(), s.p99Ms());
    }

    static String bytes(long bytes) {
        return bytes >= 1 << 20 ? Text.f("%.1f MiB", bytes / (double) (1 << 20)) : Text.f("%.1f KiB", bytes / 1024.0);
    }

    /** report.md's section. */
    public static void section(Markdown md, GenerationResult g, List<Charts.ChartFile> charts, Path reportDir) {
        if (g == null) {
            return;
        }
        md.line("## Generation");
        md.blank();
        md.line(Text.f("Each sequence: the prompt's prefill, then %d decode steps, greedy; %d round(s), each in fresh fork JVMs, "
                + "by the same runner and rules as the sweep. A cell's unit is one whole generation: it warms up until "
                + "generations are steady and measures until their median is precise (at least 10); a fork that departs from "
                + "its siblings is measured again in a fresh JVM, and a measurement other processes disturbed is set aside. "
                + "TTFT is the prefill pass and the first pick; a step is one decode pass "
                + "and its pick; the hand-off is from one step's tokens to the next step's inputs (%s).", g.newTokens() - 1,
                g.rounds(), g.handOff()));
        md.blank();
        for (String failure : g.failures()) {
            md.line("- **A cell FAILED**, every other cell kept: " + failure);
        }
        if (!g.failures().isEmpty()) {
            md.blank();
        }
        boolean encoders = encoderDecoder(g);
        md.header(encoders ? new String[] {"engine", "device", "model", "source", "batch", "TTFT p50", "TTFT p99", "encode p50",
                "first decoder pass p50", "step p50", "step p99", "pick p50", "hand-off p50", "tokens/s per sequence", "tokens/s",
                "KV cache", "of which cross-attention", "generations"}
                : new String[] {"engine", "device", "model", "prompt", "batch", "TTFT p50", "TTFT p99", "prefill p50", "step p50",
                "step p99", "pick p50", "hand-off p50", "tokens/s per sequence", "tokens/s", "KV cache", "generations"},
                encoders ? new boolean[] {false, false, false, true, true, true, true, true, true, true, true, true, true, true, true,
                true, true, true}
                : new boolean[] {false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true});
        for (GenerationResult.Cell c : g.cells()) {
            List<String> row = new ArrayList<>(List.of(c.backend(), c.device(), Text.shortModelName(c.model()),
                    prompt(c.seqLen()), Integer.toString(c.batch()), Text.f("%.3f ms", c.ttftMs().p50Ms()),
                    Text.f("%.3f ms", c.ttftMs().p99Ms())));
            if (encoders) {
                row.add(c.encodeMs() == null ? "-" : Text.f("%.3f ms", c.encodeMs().p50Ms()));
            }
            row.addAll(List.of(Text.f("%.3f ms", c.prefillMs().p50Ms()),
                    c.stepMs() == null ? "-" : Text.f("%.3f ms", c.stepMs().p50Ms()), c.stepMs() == null ? "-" : Text.f("%.3f ms", c.stepMs().p99Ms()),
                    c.pickMs() == null ? "-" : Text.f("%.3f ms", c.pickMs().p50Ms()),
                    c.handOffMs() == null ? "-" : Text.f("%.3f ms", c.handOffMs().p50Ms()), Text.f("%.1f", c.tokensPerSecondPerSequence()),
                    Text.f("%.1f", c.tokensPerSecond()), bytes(c.kvCacheBytes())));
            if (encoders) {
                row.add(c.crossAttentionCacheBytes() == null ? "-" : bytes(c.crossAttentionCacheBytes()));
            }
            row.add(Long.toString(c.generations()));
            md.row(row.toArray(String[]::new));
        }
        md.blank();
        md.line("KV cache: " + g.kvCacheConvention() + ". Tokens picked: " + sampling(g) + " (the pick is inside TTFT and "
                + "each step, and timed alone as the pick).");
        md.blank();
        md.line("### Verdicts by phase");
        md.blank();
        for (GenerationResult.Fit f : g.fits()) {
            md.line("- " + verdict(f) + roofline(g, f) + ". " + (f.reason() == null ? "" : f.reason()));
        }
        md.blank();
        md.line("### On the roofline");
        md.blank();
        md.header(new String[] {"engine", "model", "prompt", "batch", "phase", "GFLOP", "MB moved", "FLOP roof", "bandwidth", "class"},
                false, false, true, true, false, true, true, true, true, false);
        for (GenerationResult.Cell c : g.cells()) {
            for (String phase : List.of("prefill", "decode")) {
                GenerationResult.PhaseRoofline r = phase.equals("prefill") ? c.prefillRoofline() : c.stepRoofline();
                if (r != null) {
                    md.row(c.backend() + " " + c.device(), Text.shortModelName(c.model()), prompt(c.seqLen()),
                            Integer.toString(c.batch()), phase, Text.f("%.3f", r.flops() / 1e9), Text.f("%.1f", r.bytes() / 1e6),
                            percent(r.percentOfFlopRoof()), percent(r.percentOfBandwidth()), r.rooflineClass());
                }
            }
        }
        md.blank();
        if (!g.agreement().isEmpty()) {
            md.line("### Greedy tokens");
            md.blank();
            md.header(new String[] {"candidate", "reference", "model", "prompt", "batch", "tokens match", "first mismatch"},
                    false, false, false, true, true, false, true);
            for (GenerationResult.TokenAgreement a : g.agreement()) {
                md.row(a.candidate(), a.reference(), Text.shortModelName(a.model()), Integer.toString(a.seqLen()),
                        Integer.toString(a.batch()), a.tokensMatch() ? "yes" : "no",
                        a.firstMismatchStep() == null ? "-" : Integer.toString(a.firstMismatchStep()));
            }
            md.blank();
        }
        md.line("### Memory");
        md.blank();
        md.header(new String[] {"model", "batch", "context (positions)", "KV cache", "per position", "longest context in budget"},
                false, true, true, true, true, true);
        for (GenerationResult.CacheSize m : g.memory()) {
            md.row(Text.shortModelName(m.model()), Integer.toString(m.batch()), Long.toString(m.contextPositions()), bytes(m.bytes()),
                    bytes(m.bytesPerPosition()), m.maxContextInBudget() == null ? "no budget (-Dbench.memoryBudgetMb)"
                            : Long.toString(m.maxContextInBudget()));
        }
        md.blank();
        md.line("Serving with generation (continuous batching) is not measured: see docs/generation.md.");
        md.blank();
        for (Charts.ChartFile chart : charts) {
            md.line("![" + chart.title() + "](" + reportDir.relativize(chart.png()).toString().replace('\\', '/') + ")").blank();
        }
    }

    /**
     * A cell's prompt (or an encoder-decoder's source) length, {@code -} for a batch-only one (seqLen 0: an encoder with
     * no swept axis, as Whisper's fixed frames), so that no table shows an invented length.
     */
    private static String prompt(int seqLen) {
        return seqLen == 0 ? "-" : Integer.toString(seqLen);
    }
}
