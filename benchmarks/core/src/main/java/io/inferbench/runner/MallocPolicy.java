package io.inferbench.runner;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How glibc's allocator behaves in the JVMs that measure ({@code -Dbench.malloc}). With glibc's defaults an engine
 * that takes its CPU tensors from {@code malloc} maps and unmaps its large blocks on every pass, so a pass's time
 * changes with the process's age and from JVM to JVM: not the engine's steady state (why, and measured:
 * docs/findings.md, "glibc's allocator and an engine's tensors"). Variables the user has set already (any
 * {@code MALLOC_*}, {@code GLIBC_TUNABLES}, or an {@code LD_PRELOAD}ed allocator) are never overridden: then nothing is
 * added. What the forks ran with is recorded in {@code run.json}.
 */
public enum MallocPolicy implements JvmOption {
    /**
     * The default: the fork JVMs (and the sweep's own, when Maven starts it) run with
     * {@code MALLOC_MMAP_THRESHOLD_=2000000000}, {@code MALLOC_TRIM_THRESHOLD_=17179869184} and {@code MALLOC_ARENA_MAX=1}:
     * blocks come from one heap and freed memory stays in the process. One arena serializes {@code malloc} between
     * threads, which serving's concurrent runners may feel; {@link #SYSTEM} measures without it.
     */
    REUSE,
    /** glibc's defaults: what a service running on them would see. */
    SYSTEM;

    /** Variables that, when already set, mean the user has chosen an allocator configuration of their own. */
    static final List<String> USER_CHOICES = List.of("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_ARENA_MAX",
            "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_", "GLIBC_TUNABLES", "LD_PRELOAD");

    /**
     * The variables to add to a measuring JVM's environment, given the environment it would otherwise inherit: none with
     * {@link #SYSTEM}, or when the user has configured the allocator already.
     */
    @Override
    public Map<String, String> environment(Map<String, String> inherited) {
        Map<String, String> added = new LinkedHashMap<>();
        if (this == SYSTEM || USER_CHOICES.stream().anyMatch(inherited::containsKey)) {
            return added;
        }
        added.put("MALLOC_MMAP_THRESHOLD_", "2000000000");
        added.put("MALLOC_TRIM_THRESHOLD_", "17179869184");
        added.put("MALLOC_ARENA_MAX", "1");
        return added;
    }

    /** The allocator variables in effect in {@code environment}, for the record. */
    public static Map<String, String> inEffect(Map<String, String> environment) {
        return JvmOption.inEffect(environment, USER_CHOICES);
    }
}
