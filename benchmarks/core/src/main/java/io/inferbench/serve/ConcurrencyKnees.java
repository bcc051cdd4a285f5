package io.inferbench.serve;

import io.inferbench.Text;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.ServingResult;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The closed loop's knee ({@link ServingResult.ConcurrencyKnee}): over each engine, device and model's closed-loop
 * points, the first concurrency whose doubling (a measured point at exactly twice the clients) raises the achieved
 * throughput by less than {@link ServingResult#KNEE_GAIN_PERCENT} percent. Beyond it more clients only queue.
 */
public final class ConcurrencyKnees {
    private ConcurrencyKnees() {
    }

    public static List<ServingResult.ConcurrencyKnee> of(List<LoadPointResult> points) {
        Map<String, List<LoadPointResult>> groups = new LinkedHashMap<>();
        for (LoadPointResult p : points) {
            if ("closed-loop".equals(p.mode()) && "point".equals(p.purpose())) {
                groups.computeIfAbsent(p.backend() + "\u0000" + p.device() + "\u0000" + p.model(), k -> new ArrayList<>()).add(p);
            }
        }
        List<ServingResult.ConcurrencyKnee> knees = new ArrayList<>();
        for (List<LoadPointResult> group : groups.values()) {
            group.sort(Comparator.comparingInt(LoadPointResult::concurrency));
            knees.add(knee(group));
        }
        return knees;
    }

    static ServingResult.ConcurrencyKnee knee(List<LoadPointResult> sorted) {
        LoadPointResult first = sorted.get(0);
        boolean anyDoubling = false;
        for (LoadPointResult p : sorted) {
            LoadPointResult doubled = sorted.stream().filter(q -> q.concurrency() == 2 * p.concurrency()).findFirst().orElse(null);
            if (doubled == null || p.achievedRps() <= 0) {
                continue;
            }
            anyDoubling = true;
            double gain = 100 * (doubled.achievedRps() / p.achievedRps() - 1);
            if (gain < ServingResult.KNEE_GAIN_PERCENT) {
                return new ServingResult.ConcurrencyKnee(first.backend(), first.device(), first.model(),
                        new ServingResult.ConcurrencyKnee.Knee(p.concurrency(), p.achievedRps(), doubled.concurrency(),
                                doubled.achievedRps(), gain, p99(p), p99(doubled)),
                        Text.f("%d to %d clients raised throughput by %.1f%% (%.1f to %.1f requests/s), under %.0f%%: "
                                + "%d clients is the knee; more only queue (p99 %s to %s ms)", p.concurrency(),
                                doubled.concurrency(), gain, p.achievedRps(), doubled.achievedRps(), ServingResult.KNEE_GAIN_PERCENT,
                                p.concurrency(), Text.number(p99(p)), Text.number(p99(doubled))));
            }
        }
        LoadPointResult last = sorted.get(sorted.size() - 1);
        return new ServingResult.ConcurrencyKnee(first.backend(), first.device(), first.model(),
                ServingResult.ConcurrencyKnee.Knee.NONE, anyDoubling
                        ? Text.f("every doubling measured raised throughput by %.0f%% or more, up to %d clients (%.1f "
                        + "requests/s): the knee is beyond them; measure more clients", ServingResult.KNEE_GAIN_PERCENT,
                        last.concurrency(), last.achievedRps())
                        : "no two closed-loop concurrencies are a doubling apart (give e.g. -Dbench.concurrency=1,2,4,8)");
    }

    private static Double p99(LoadPointResult p) {
        return p.latencyFromIntendedMs() == null ? null : p.latencyFromIntendedMs().p99Ms();
    }
}
