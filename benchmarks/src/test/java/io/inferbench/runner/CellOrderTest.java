package io.inferbench.runner;

import io.inferbench.cli.Settings;
import io.inferbench.sweep.ForwardKind;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Which cells share a fork JVM, and the seeded order they run in. */
class CellOrderTest {
    private static List<Cell> plan(String isolation) {
        Properties p = new Properties();
        p.setProperty("bench.backend", "onnxruntime,djl");
        p.setProperty("bench.model", "tiny");
        p.setProperty("bench.seq", "64,256,512");
        p.setProperty("bench.isolation", isolation);
        return Cell.plan(Settings.sweep(p), new ForwardKind());
    }

    @Test
    void modelIsolationGroupsEveryCellOfAnEngineDeviceAndModel() {
        List<Cell> plan = plan("model");
        List<List<Cell>> groups = Cell.groups(plan, Isolation.MODEL);
        assertEquals(2, groups.size());
        assertEquals(24, groups.get(0).size());
        assertEquals(Set.of("onnxruntime"), backends(groups.get(0)));
        assertEquals(Set.of("djl"), backends(groups.get(1)));
        assertEquals(48, Cell.groups(plan, Isolation.CELL).size());
    }

    @Test
    void theOrderIsASeededPermutationThatDiffersFromRoundToRound() {
        List<Cell> group = Cell.groups(plan("model"), Isolation.MODEL).get(0);
        List<Cell> round1 = Cell.order(group, 42, 1);
        List<Cell> round2 = Cell.order(group, 42, 2);
        List<Cell> round3 = Cell.order(group, 42, 3);
        assertEquals(new HashSet<>(group), new HashSet<>(round1));
        assertEquals(group.size(), round1.size());
        assertEquals(round1, Cell.order(group, 42, 1), "the same settings give the same order");
        assertNotEquals(round1, round2);
        assertNotEquals(round2, round3);
        assertNotEquals(round1, round3);
        assertNotEquals(group, round1, "not the plan's order");
        assertNotEquals(round1, Cell.order(group, 43, 1), "the seed changes it");
    }

    @Test
    void aSingleCellStaysAsItIs() {
        Cell cell = plan("cell").get(0);
        assertEquals(List.of(cell), Cell.order(List.of(cell), 42, 3));
    }

    private static Set<String> backends(List<Cell> cells) {
        Set<String> names = new HashSet<>();
        cells.forEach(c -> names.add(c.backend()));
        return names;
    }
}
