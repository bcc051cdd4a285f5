package io.inferbench.engine.djl;

import io.inferbench.engine.Device;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whether DJL leaves the default engines on CUDA is read from the environment, never by starting PyTorch. */
class DjlLeftOutTest {
    private final DjlPyTorchProvider provider = new DjlPyTorchProvider();
    private final List<Device> cuda = List.of(Device.parse("cuda"));

    @Test
    void withoutACudaLibtorchItLeavesNamingTheFix() {
        String why = provider.leftOutByDefault(cuda, Map.of("PATH", "/usr/bin"));
        assertTrue(why.startsWith("its PyTorch natives are the CPU-only ones bundled here") && why.contains("PYTORCH_LIBRARY_PATH")
                && why.contains("-Dbench.device=cpu"), why);
        assertTrue(provider.leftOutByDefault(cuda, Map.of("PYTORCH_LIBRARY_PATH", "/opt/torch/lib", "PYTORCH_FLAVOR", "cpu"))
                != null, "a CPU libtorch reaches no GPU either");
    }

    @Test
    void aCudaLibtorchOrTheCpuKeepsIt() {
        assertNull(provider.leftOutByDefault(cuda, Map.of("PYTORCH_LIBRARY_PATH", "/opt/torch/lib", "PYTORCH_FLAVOR", "cu126")));
        assertNull(provider.leftOutByDefault(List.of(Device.parse("cpu")), Map.of()));
    }
}
