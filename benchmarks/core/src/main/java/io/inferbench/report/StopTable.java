package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.measure.MeasureEnd;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.measure.StopPolicy;
import io.inferbench.measure.WarmupEnd;
import io.inferbench.measure.WarmupPolicy;
import io.inferbench.results.CellFork;
import io.inferbench.results.CellResult;
import io.inferbench.results.DepartedFork;
import io.inferbench.results.RunResult;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The console's account of why each number stopped: the warm-up and stop rules in words, and after the sweep how many
 * cell forks ended each way, with the cells that reached a cap named.
 */
public final class StopTable {
    /** Cells named on the console per cap; report.md lists all. */
    static final int NAMED = 4;

    private StopTable() {
    }

    /** The rules in one phrase, for the plan line. */
    public static String describe(MeasurePolicy policy) {
        return describe(policy.warmup()) + "; " + describe(policy.stop());
    }

    static String describe(WarmupPolicy w) {
        if (w.fixed()) {
            return w.fixedPasses() + " warm-up passes (fixed)";
        }
        return Text.f("warm-up until steady (windows of %d+ passes and %d+ ms until one is no more than %.0f%% faster than "
                        + "the last, the JIT under %.0f%% of it, %s to %s)", w.windowMinPasses(), w.windowMs(), 100 * w.tolerance(),
                100 * w.jitQuietShare(), seconds(w.minMs()), seconds(w.capMs()));
    }

    static String describe(StopPolicy s) {
        if (s.fixed()) {
            return s.fixedPasses() + " measured passes (fixed)";
        }
        return Text.f("measure until the p50's %.0f%% interval is within ±%s (%d+ passes and %s, at most %s)",
                100 * s.confidence(), Text.f("%.3g%%", 100 * s.precision()).replaceAll("\\.?0+%$", "%"), s.minPasses(),
                seconds(s.minMs()), seconds(s.capMs()));
    }

    private static String seconds(long ms) {
        return ms < 1000 ? ms + " ms" : Text.f("%.3g s", ms / 1000.0).replaceAll("\\.?0+ s$", " s");
    }

    /** How the sweep's cell forks ended, in one line, with the ones that hit a cap named. */
    public static void print(RunResult run, PrintStream out) {
        run.cells().stream().filter(c -> c.unstable() != null).forEach(c -> out.println("[inferbench] UNSTABLE: " + c.id()
                + ": " + c.unstable() + " (run.json's cells[].unstable; its numbers are not one steady state)"));
        run.cells().stream().filter(c -> c.memoryGrowing() != null).forEach(c -> out.println("[inferbench] MEMORY GROWING: "
                + c.id() + ": " + c.memoryGrowing() + " (run.json's cells[].memoryGrowing; a leak grows with the calls)"));
        List<CellResult> cells = run.cells().stream().filter(CellResult::measured).filter(c -> c.forkRuns() != null).toList();
        if (cells.isEmpty()) {
            return;
        }
        Map<WarmupEnd, Integer> warmups = new EnumMap<>(WarmupEnd.class);
        Map<MeasureEnd, Integer> stops = new EnumMap<>(MeasureEnd.class);
        List<String> warmupCapped = new ArrayList<>();
        List<CellFork> measured = new ArrayList<>();
        List<String> stopCapped = new ArrayList<>();
        for (CellResult cell : cells) {
            for (CellFork fork : cell.forkRuns()) {
                warmups.merge(fork.warmup().end(), 1, Integer::sum);
                stops.merge(fork.measurement().end(), 1, Integer::sum);
                measured.add(fork);
                if (fork.warmup().end() == WarmupEnd.TIME_CAP && !warmupCapped.contains(cell.id())) {
                    warmupCapped.add(cell.id());
                }
                if (fork.measurement().end() == MeasureEnd.TIME_CAP && !stopCapped.contains(cell.id())) {
                    stopCapped.add(cell.id());
                }
            }
        }
        long fewest = measured.stream().mapToLong(f -> f.measurement().passes()).min().orElse(0);
        long most = measured.stream().mapToLong(f -> f.measurement().passes()).max().orElse(0);
        CellFork widest = measured.stream().filter(f -> f.measurement().p50HalfWidthPercent() != null)
                .max(Comparator.comparingDouble(f -> f.measurement().p50HalfWidthPercent())).orElse(null);
        out.println("[inferbench] per cell and fork: warm-up " + counts(warmups) + named(" (time cap: ", warmupCapped)
                + "; measurement " + counts(stops) + Text.f(", %d to %d passes", fewest, most)
                + (widest == null ? "" : Text.f(", widest p50 interval ±%.1f%%", widest.measurement().p50HalfWidthPercent()))
                + named(" (time cap: ", stopCapped) + setAside(measured) + departed(cells));
    }

    /** The forks that departed from their siblings and were measured again in a fresh JVM, named. */
    static String departed(List<CellResult> cells) {
        List<String> named = new ArrayList<>();
        for (CellResult cell : cells) {
            if (cell.departedForks() != null) {
                cell.departedForks().forEach(d -> named.add(Text.f("%s fork %d x%.2f%s", cell.id(), d.fork().round(), d.ratio(),
                        DepartedFork.DOUBTED.equals(d.reason()) ? " doubted" : "")));
            }
        }
        if (named.isEmpty()) {
            return "";
        }
        return Text.f("; %d fork(s) departed from their siblings (or, doubted, were the siblings a fresh JVM found off) and "
                + "were measured again in a fresh JVM (first p50 over the kept forks' median)", named.size()) + named(": ", named).replaceFirst("\\)$", "");
    }

    /** How many fork measurements were set aside as disturbed, and how many cells kept a disturbed one after the limit. */
    static String setAside(List<CellFork> measured) {
        long remeasured = measured.stream().filter(f -> f.measurement().setAside() != null).count();
        if (remeasured == 0) {
            return "";
        }
        long setAside = measured.stream().filter(f -> f.measurement().setAside() != null)
                .mapToLong(f -> f.measurement().setAside().size()).sum();
        long stillDisturbed = measured.stream().filter(f -> io.inferbench.measure.CellLoop.disturbed(f.measurement().cpu())).count();
        return Text.f("; %d measurement(s) of %d cell fork(s) set aside and measured again: other processes took more than "
                + "%.0f%% of the machine%s", setAside, remeasured, io.inferbench.measure.CellLoop.DISTURBED_PERCENT,
                stillDisturbed == 0 ? "" : Text.f(" (%d kept disturbed after %d tries: re-run on a quieter machine)",
                        stillDisturbed, io.inferbench.measure.CellLoop.MAX_REMEASURES + 1));
    }

    private static <E extends Enum<E>> String counts(Map<E, Integer> counts) {
        return counts.entrySet().stream().map(e -> e.getValue() + " " + label(e.getKey())).collect(Collectors.joining(", "));
    }

    private static String label(Enum<?> end) {
        return end instanceof WarmupEnd w ? w.label() : ((MeasureEnd) end).label();
    }

    private static String named(String prefix, List<String> ids) {
        if (ids.isEmpty()) {
            return "";
        }
        String shown = ids.stream().limit(NAMED).collect(Collectors.joining(", "));
        return prefix + shown + (ids.size() > NAMED ? " and " + (ids.size() - NAMED) + " more; see report.md" : "") + ")";
    }
}
