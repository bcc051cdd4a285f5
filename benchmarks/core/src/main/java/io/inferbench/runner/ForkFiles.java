package io.inferbench.runner;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * How the sweep reads one cell's fork folder, beyond what the forks wrote there: measurements set aside while their fork
 * is measured again (by file name, with why: {@code departed} or {@code doubted}), and error files of a re-measurement
 * that failed, which do not fail the cell. The files themselves are never renamed; this is the sweep's own record of
 * them ({@link SweepState}).
 */
record ForkFiles(Map<String, String> setAside, Set<String> ignored) {
    static final ForkFiles NONE = new ForkFiles(Map.of(), Set.of());

    ForkFiles {
        setAside = Map.copyOf(setAside);
        ignored = Set.copyOf(ignored);
    }

    ForkFiles settingAside(String file, String reason) {
        Map<String, String> more = new LinkedHashMap<>(setAside);
        more.put(file, reason);
        return new ForkFiles(more, ignored);
    }

    /** The measurement set aside in {@code round} counts again: its re-measurement left none. */
    ForkFiles restoring(int round) {
        Map<String, String> kept = new LinkedHashMap<>(setAside);
        kept.keySet().removeIf(file -> file.startsWith(CellAggregator.roundPrefix(round)));
        return new ForkFiles(kept, ignored);
    }

    ForkFiles ignoring(String file) {
        Set<String> more = new LinkedHashSet<>(ignored);
        more.add(file);
        return new ForkFiles(setAside, more);
    }
}
