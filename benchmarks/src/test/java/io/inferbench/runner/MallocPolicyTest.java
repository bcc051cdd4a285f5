package io.inferbench.runner;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the measuring JVMs' allocator environment becomes, and that a user's own choice is never overridden. */
class MallocPolicyTest {
    @Test
    void reuseKeepsFreedMemoryInOneArena() {
        Map<String, String> added = MallocPolicy.REUSE.environment(Map.of("PATH", "/usr/bin"));
        assertEquals(Map.of("MALLOC_MMAP_THRESHOLD_", "2000000000", "MALLOC_TRIM_THRESHOLD_", "17179869184",
                "MALLOC_ARENA_MAX", "1"), added);
    }

    @Test
    void systemAddsNothing() {
        assertTrue(MallocPolicy.SYSTEM.environment(Map.of()).isEmpty());
    }

    @Test
    void anAllocatorTheUserChoseIsNeverOverridden() {
        assertTrue(MallocPolicy.REUSE.environment(Map.of("LD_PRELOAD", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2")).isEmpty());
        assertTrue(MallocPolicy.REUSE.environment(Map.of("MALLOC_ARENA_MAX", "4")).isEmpty());
        assertTrue(MallocPolicy.REUSE.environment(Map.of("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0")).isEmpty());
        assertEquals(Map.of("LD_PRELOAD", "libjemalloc.so.2"),
                MallocPolicy.inEffect(Map.of("LD_PRELOAD", "libjemalloc.so.2", "PATH", "/usr/bin")), "and it is recorded");
    }
}
