package io.inferbench.runner;

import io.inferbench.BenchmarkException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A duet's halves of the cores, which half is B's as drawn, and the pinned command line of a fork JVM. */
class DuetCpusTest {
    @Test
    void theHalvesSwapAsDrawnAndAnOddCoreIsLeftOut() {
        DuetCpus duet = new DuetCpus(List.of(0, 1, 2, 3, 4));
        assertEquals(2, duet.halfSize());
        duet.assign(true);
        assertEquals("0,1", duet.b());
        assertEquals("2,3", duet.a());
        duet.assign(false);
        assertEquals("2,3", duet.b());
        assertEquals("0,1", duet.a());
    }

    @Test
    void oneCoreIsRefusedNamingTheOtherMode() {
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> new DuetCpus(List.of(3)));
        assertTrue(e.getMessage().contains("may run on 1 core(s) (3)") && e.getMessage().contains("-Dbench.ab.mode=forks"),
                e.getMessage());
    }

    /** Pinned: taskset with the cores the supplier gives when the fork starts, then the fork's own java command. */
    @Test
    void aPinnedExecutorStartsItsForkUnderTaskset() {
        JvmForkExecutor plain = new JvmForkExecutor("io.example.Main", null, Map.of(), null);
        DuetCpus duet = new DuetCpus(List.of(0, 1));
        duet.assign(false);
        JvmForkExecutor pinned = (JvmForkExecutor) plain.pinned(duet::b);
        List<String> unpinned = plain.command(Path.of("plan.json"), Path.of("tmp"));
        assertTrue(unpinned.get(0).endsWith("java"), unpinned.toString());
        assertEquals(List.of("taskset", "-c", "1"), pinned.command(Path.of("plan.json"), Path.of("tmp")).subList(0, 3));
        assertEquals(unpinned, pinned.command(Path.of("plan.json"), Path.of("tmp")).subList(3, unpinned.size() + 3));
        duet.assign(true);
        assertEquals("0", pinned.command(Path.of("plan.json"), Path.of("tmp")).get(2), "the cores drawn for the next pair");
    }
}
