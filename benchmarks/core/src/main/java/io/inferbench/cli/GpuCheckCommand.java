package io.inferbench.cli;

import io.inferbench.engine.EngineProvider;
import io.inferbench.engine.Engines;
import io.inferbench.engine.GpuReadiness;
import io.inferbench.environment.EnvironmentProbe;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * {@code exec:java@gpucheck}: whether this machine can run a benchmark on CUDA, before a long run finds out. One row per
 * requirement (the GPU and its driver, then each engine's own rows: the CUDA and cuDNN libraries it loads, whether it
 * reaches the GPU; {@link io.inferbench.engine.EngineProvider#gpuReadiness}) with what was found and, for a failure, the
 * fix. Exits 0 when at least one engine can run on the GPU, else 2.
 */
final class GpuCheckCommand {
    private GpuCheckCommand() {
    }

    /** One row: what was checked, whether it passed, what was found, and the fix when it did not. */
    record Row(String check, boolean ok, String found, String fix) {
    }

    static ExitCode run(Properties p, PrintStream out) {
        PropertyNames.checkKnown(p);
        List<Row> rows = new ArrayList<>();
        EnvironmentProbe.GpuQuery gpus = EnvironmentProbe.queryGpus();
        boolean gpu = gpus.gpus() != null && !gpus.gpus().isEmpty();
        rows.add(new Row("NVIDIA GPU and driver (nvidia-smi)", gpu, gpu ? String.join("; ", gpus.gpus()) : gpus.note(),
                "install the NVIDIA driver (it brings nvidia-smi), or run where a GPU is: nothing runs on CUDA without one"));
        boolean engineReady = false;
        for (EngineProvider engine : Engines.providers()) {
            List<GpuReadiness> checks = engine.gpuReadiness(Settings.path(p, Setting.NATIVE_CACHE, Settings.root(p)));
            checks.forEach(c -> rows.add(new Row(c.check(), c.ok(), c.found(), c.fix())));
            engineReady |= checks.stream().filter(GpuReadiness::required).allMatch(GpuReadiness::ok);
        }
        out.println("[inferbench] GPU readiness (exit 0: an engine can run on CUDA; 2: none can)");
        out.println(String.format("%-36s %-5s %s", "check", "state", "found / fix"));
        for (Row row : rows) {
            out.println(String.format("%-36s %-5s %s", row.check(), row.ok() ? "ok" : "FAIL", row.found()));
            if (!row.ok()) {
                out.println(String.format("%-36s %-5s fix: %s", "", "", row.fix()));
            }
        }
        boolean ready = gpu && engineReady;
        out.println(ready ? "[inferbench] ready: mvn verify -DskipTests -Pgpu -Dbench.device=cuda"
                : "[inferbench] not ready for CUDA: fix the FAIL rows above (a cuda run would stop in its preflight, exit 2)");
        return ready ? ExitCode.OK : ExitCode.BAD_INPUT;
    }
}
