package io.inferbench.sweep;

import io.inferbench.backend.Backends;
import io.inferbench.backend.Device;
import io.inferbench.backend.InferenceBackend;
import io.inferbench.backend.InferenceSession;
import io.inferbench.backend.SessionSpec;
import io.inferbench.measure.ColdStart;
import io.inferbench.measure.ForkMeasurement;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.PassRecorder;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.model.TokenInputs;
import io.inferbench.results.Json;
import io.inferbench.results.RunStore;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One cell's life inside one forked JVM, independent of JMH: open the session (timing cold start), time
 * passes through a {@link PassRecorder}, then persist what was measured.
 *
 * <p>Cold start is measured in order on a fresh JVM: engine load, session creation, input preparation
 * (not timed), first forward pass. The first pass is reported only as cold start; it is not a warm-up pass.
 */
public final class CellTrial implements AutoCloseable {
    private static final double NS_PER_MS = 1_000_000.0;

    private final Cell cell;
    private final ForkSettings settings;
    private final InferenceBackend backend;
    private final InferenceSession session;
    private final ColdStart coldStart;
    private final PassRecorder recorder = new PassRecorder();

    private CellTrial(Cell cell, ForkSettings settings, InferenceBackend backend, InferenceSession session, ColdStart coldStart) {
        this.cell = cell;
        this.settings = settings;
        this.backend = backend;
        this.session = session;
        this.coldStart = coldStart;
    }

    /** Opens the cell's session; on failure, writes the error next to where the measurement would go, then rethrows. */
    public static CellTrial open(Cell cell, ForkSettings settings) {
        try {
            ModelSource source = ModelSource.parse(cell.model());
            Path model = new ModelResolver(settings.cacheDir(), settings.seed()).locate(source);
            InferenceBackend backend = Backends.create(cell.backend(), settings.djlCacheDir());
            long t0 = System.nanoTime();
            backend.engineVersion();
            long t1 = System.nanoTime();
            InferenceSession session = backend.open(new SessionSpec(source, model, settings.seed(), Device.parse(cell.device()),
                    settings.intraOpThreads(), settings.interOpThreads(), settings.allowCpuFallback()));
            long t2 = System.nanoTime();
            try {
                session.prepare(cell.batch(), cell.seqLen(), TokenInputs.tokenIds(cell.batch(), cell.seqLen(), settings.seed()));
                long t3 = System.nanoTime();
                session.forward();
                long t4 = System.nanoTime();
                ColdStart coldStart = new ColdStart((t1 - t0) / NS_PER_MS, (t2 - t1) / NS_PER_MS, (t4 - t3) / NS_PER_MS);
                return new CellTrial(cell, settings, backend, session, coldStart);
            } catch (RuntimeException e) {
                session.close();
                throw e;
            }
        } catch (RuntimeException e) {
            writeError(settings.outputDir(), e);
            throw e;
        }
    }

    public PassRecorder recorder() {
        return recorder;
    }

    public InferenceSession session() {
        return session;
    }

    public ForkMeasurement measurement() {
        long pid = ProcessHandle.current().pid();
        return new ForkMeasurement(cell.id(), pid, coldStart,
                recorder.warmupNs().getTotalCount(), recorder.measuredNs().getTotalCount(),
                HistogramCodec.encode(recorder.warmupNs()), HistogramCodec.encode(recorder.measuredNs()),
                session.executionProvider(), session.intraOpThreads(), session.interOpThreads(), backend.engineVersion(),
                session.engineFlavor(), session.deviceUsed(), session.outputHandling());
    }

    /** Writes this fork's measurement atomically as {@code fork-<pid>.json} in the output folder. */
    public void persist() {
        ForkMeasurement m = measurement();
        RunStore.writeAtomically(settings.outputDir().resolve("fork-" + m.pid() + ".json"),
                out -> Json.mapper().writeValue(out, m));
    }

    static void writeError(Path dir, Throwable error) {
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("fork-" + ProcessHandle.current().pid() + ".error"),
                    error.getMessage() + "\n\n" + trace, StandardCharsets.UTF_8);
        } catch (IOException e) {
            error.addSuppressed(e);
        }
    }

    @Override
    public void close() {
        session.close();
    }
}
