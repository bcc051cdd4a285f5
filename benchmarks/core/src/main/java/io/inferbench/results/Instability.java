package io.inferbench.results;

import io.inferbench.Text;
import io.inferbench.measure.CellLoop;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.SetAside;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a cell's numbers changed under the harness's feet (a subject that turns ten times slower after its first
 * thousand calls): what it kept disagrees with what it set aside, or its forks disagree, by more than the machine's noise
 * explains. Only measurements the machine did not disturb are held to these rules, each a plain ratio (a fork kept
 * disturbed after its tries measured the machine's noise, which the cell's doubts already say):
 * <ul>
 *   <li>a measurement set aside as disturbed (other processes took the machine) can only read slower than an undisturbed
 *       one: a kept re-measurement more than {@value #KEPT_SLOWER} times the set-aside one's p50 means the subject itself
 *       changed;</li>
 *   <li>a set-aside measurement may read slower by what the other processes took of the machine, {@code 1 / (1 - share)};
 *       more than {@value #KEPT_SLOWER} times that is more than they explain;</li>
 *   <li>the kept forks of one cell (fresh JVMs, each warmed up until steady) whose p50s lie more than
 *       {@value #FORKS_APART} times apart disagree beyond the fork-to-fork spread a JVM's JIT and heap layout give.</li>
 * </ul>
 */
public final class Instability {
    /** How much slower a kept measurement may read than a set-aside (disturbed) one before the subject is unstable. */
    static final double KEPT_SLOWER = 1.25;
    /** How far apart, as a ratio, the p50s of one cell's kept forks may lie. */
    static final double FORKS_APART = 1.5;

    private Instability() {
    }

    /** Why {@code cell}'s numbers are unstable, with the figures; null when they are not, or it was not measured. */
    public static String of(CellResult cell) {
        if (cell.status() != CellStatus.OK || cell.forkRuns() == null || cell.forkRuns().isEmpty()) {
            return null;
        }
        List<String> encoded = cell.forkHistogramsNs() != null ? cell.forkHistogramsNs()
                : cell.histogramNs() == null ? List.of() : List.of(cell.histogramNs());
        if (encoded.size() != cell.forkRuns().size()) {
            return null;
        }
        List<String> why = new ArrayList<>();
        double[] kept = encoded.stream().mapToDouble(HistogramCodec::p50Ms).toArray();
        List<Double> quietForks = new ArrayList<>();
        for (int i = 0; i < kept.length; i++) {
            CellFork fork = cell.forkRuns().get(i);
            if (fork.measurement() != null && CellLoop.disturbed(fork.measurement().cpu())) {
                continue; // kept disturbed after its tries: the machine's noise, which the cell's doubts already say
            }
            quietForks.add(kept[i]);
            if (fork.measurement() == null || fork.measurement().setAside() == null) {
                continue;
            }
            for (SetAside aside : fork.measurement().setAside()) {
                double explained = 1 / Math.max(0.1, 1 - aside.otherProcessesPercent() / 100);
                if (kept[i] > KEPT_SLOWER * aside.p50Ms()) {
                    why.add(Text.f("fork %d kept a re-measurement at p50 %.3f ms where the measurement it set aside as "
                            + "disturbed read %.3f ms: the subject itself slowed down", fork.round(), kept[i], aside.p50Ms()));
                } else if (aside.p50Ms() > KEPT_SLOWER * explained * kept[i]) {
                    why.add(Text.f("fork %d set aside p50 %.3f ms and kept %.3f ms, more apart than the %.0f%% other processes "
                            + "took explains", fork.round(), aside.p50Ms(), kept[i], aside.otherProcessesPercent()));
                }
            }
        }
        if (quietForks.size() > 1) {
            double min = quietForks.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            double max = quietForks.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            if (max > FORKS_APART * min) {
                why.add(Text.f("its undisturbed forks' p50s range from %.3f to %.3f ms (%.1fx apart)", min, max, max / min));
            }
        }
        return why.isEmpty() ? null : String.join("; ", why);
    }
}
