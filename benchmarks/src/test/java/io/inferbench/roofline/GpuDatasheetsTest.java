package io.inferbench.roofline;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Datasheet rows are matched to nvidia-smi's names by whole tokens, the more specific row first. */
class GpuDatasheetsTest {
    private static String gpu(String smiLine) {
        return GpuDatasheets.match(smiLine).orElseThrow().gpu();
    }

    @Test
    void matchesNvidiaSmiNamesToTheRightRow() {
        assertEquals("NVIDIA H200 (SXM)", gpu("0, NVIDIA H200, 570.124.06, 143771 MiB"));
        assertEquals("NVIDIA H200 NVL", gpu("0, NVIDIA H200 NVL, 570.124.06, 143771 MiB"));
        assertEquals("NVIDIA H100 (SXM)", gpu("0, NVIDIA H100 80GB HBM3, 550.54.15, 81559 MiB"));
        assertEquals("NVIDIA H100 PCIe", gpu("1, NVIDIA H100 PCIe, 550.54.15, 81559 MiB"));
        assertEquals("NVIDIA A100 80GB SXM", gpu("0, NVIDIA A100-SXM4-80GB, 535.104.05, 81920 MiB"));
        assertEquals("NVIDIA A100 40GB", gpu("0, NVIDIA A100-SXM4-40GB, 535.104.05, 40960 MiB"));
        assertEquals("NVIDIA A10G", gpu("0, NVIDIA A10G, 535.104.05, 23028 MiB"));
        assertEquals("NVIDIA A10", gpu("0, NVIDIA A10, 535.104.05, 23028 MiB"));
        assertEquals("NVIDIA L4", gpu("0, NVIDIA L4, 535.104.05, 23034 MiB"));
        assertEquals("NVIDIA L40S", gpu("0, NVIDIA L40S, 535.104.05, 46068 MiB"));
        assertEquals("NVIDIA T4", gpu("0, Tesla T4, 535.104.05, 15360 MiB"));
        assertEquals(4.8, GpuDatasheets.match("NVIDIA H200").orElseThrow().memoryTbPerSecond());
    }

    @Test
    void anUnknownGpuHasNoDatasheet() {
        assertTrue(GpuDatasheets.match("0, NVIDIA GeForce RTX 4090, 550.54.15, 24564 MiB").isEmpty());
        assertTrue(GpuDatasheets.match("0, NVIDIA RTX A4000, 550.54.15, 16376 MiB").isEmpty());
        assertTrue(GpuDatasheets.match(null).isEmpty());
    }
}
