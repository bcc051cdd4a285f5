package io.inferbench.runner;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How glibc's allocator behaves in the JVMs that measure ({@code -Dbench.malloc}).
 *
 * <p><b>Why it matters.</b> An engine that takes its CPU tensors from {@code malloc} is exposed. With glibc's defaults,
 * a block above the dynamic mmap threshold (32 MB at most; an attention matrix of {@code tiny} at seq 512 x batch 8 is
 * 33.5 MB) is mapped fresh on every allocation and unmapped on every free, a freed arena top above the trim threshold
 * is handed back to the kernel, and a thread's arena (the JVM's threads all get one) cannot grow past 64 MB, so large
 * blocks are mapped anyway: every pass then page-faults its working set in again, and a pass's time changes with the
 * process's age and from JVM to JVM (measured: docs/findings.md, "glibc's allocator and an engine's tensors"). That is
 * not the engine's steady state. Engines' performance guides recommend a caching allocator (jemalloc, tcmalloc) for CPU
 * inference for this reason; glibc can be told to keep freed memory with three variables, which needs nothing
 * installed.
 *
 * <ul>
 *   <li>{@link #REUSE}, the default: the fork JVMs (and the sweep's own JVM, when Maven starts it) run with
 *       {@code MALLOC_MMAP_THRESHOLD_=2000000000}, {@code MALLOC_TRIM_THRESHOLD_=17179869184} and
 *       {@code MALLOC_ARENA_MAX=1}: blocks come from one heap and freed memory stays in the process. An engine that
 *       allocates from its own arena is barely affected. One arena serializes {@code malloc} between threads, which
 *       the concurrent runners of serving may feel; {@code system} measures without it.</li>
 *   <li>{@link #SYSTEM}: glibc's defaults, to measure what a service running on them would see.</li>
 * </ul>
 * Variables the user has set already (any {@code MALLOC_*}, {@code GLIBC_TUNABLES}, or an {@code LD_PRELOAD}ed allocator)
 * are never overridden: then nothing is added. What the forks ran with is recorded in {@code run.json}.
 */
public enum MallocPolicy implements JvmOption {
    REUSE,
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
