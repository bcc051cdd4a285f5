package io.inferbench.engine.targets;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The libraries a target shares with the harness, named from the class path's Maven layout. */
class SharedLibrariesTest {
    @Test
    void namesTheInferenceLibrariesOfAMavenClassPath() {
        String classPath = String.join(java.io.File.pathSeparator,
                "/work/main/benchmarks/target/classes",
                "/root/.m2/repository/com/microsoft/onnxruntime/onnxruntime/1.23.2/onnxruntime-1.23.2.jar",
                "/root/.m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar",
                "/root/.m2/repository/ai/djl/api/0.36.0/api-0.36.0.jar",
                "/root/.m2/repository/ai/djl/pytorch/pytorch-native-cpu/2.7.1/pytorch-native-cpu-2.7.1-linux-x86_64.jar",
                "/root/.m2/repository/com/fasterxml/jackson/core/jackson-databind/2.22.3/jackson-databind-2.22.3.jar",
                "/opt/lib/onnxruntime-9.9.jar");
        assertEquals(List.of("com.microsoft.onnxruntime:onnxruntime:1.23.2", "ai.djl:api:0.36.0",
                "ai.djl.pytorch:pytorch-native-cpu:2.7.1", "com.fasterxml.jackson.core:jackson-databind:2.22.3"),
                TargetEngine.sharedLibraries(classPath));
    }
}
