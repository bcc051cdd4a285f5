package io.inferbench.jmh;

import io.inferbench.ChildJvm;
import io.inferbench.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With the PyTorch natives jar off the classpath and an empty native cache, DJL (offline) has nothing to load: the
 * sweep must stop in preflight with the documented message, having downloaded nothing and measured nothing.
 */
class MissingNativesTest {
    @TempDir
    Path dir;

    @Test
    void aMissingPyTorchNativeStopsTheSweepWithTheFix() throws Exception {
        ChildJvm.Result child = ChildJvm.runWithout("pytorch-native-cpu", List.of(
                "-Dbench.backend=djl", "-Dbench.seq=8", "-Dbench.batch=1", "-Dbench.threads=1",
                "-Dbench.results=" + dir.resolve("results"), "-Dbench.nativeCache=" + dir.resolve("empty-cache"),
                "-Dbench.cache=" + TestPaths.modelCache().toString()),
                "sweep");
        assertEquals(2, child.exitCode(), child.output());
        assertTrue(child.output().contains("DJL's PyTorch engine could not start"), child.output());
        assertTrue(child.output().contains("pytorch-native-cpu"), child.output());
        assertTrue(!child.output().contains("run 1 of"), "nothing may be measured: " + child.output());
    }
}
