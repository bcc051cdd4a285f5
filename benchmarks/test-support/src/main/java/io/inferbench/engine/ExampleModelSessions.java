package io.inferbench.engine;

import io.inferbench.inputs.InputOptions;
import io.inferbench.model.ExampleModels;
import io.inferbench.model.ModelSource;

import java.nio.file.Path;

/** The generated example models (docs/models.md) as the engines' tests open them: one seed, one CPU thread. */
public final class ExampleModelSessions {
    /** The seed the models' weights and their inputs are drawn with. */
    public static final long SEED = 42;

    private ExampleModelSessions() {
    }

    /** Writes every example model into {@code dir}, with {@link #SEED}. */
    public static void write(Path dir) {
        ExampleModels.write(dir, SEED);
    }

    /** A CPU session of one intra-op and one inter-op thread on {@code source}, its inputs as given. */
    public static SessionSpec spec(ModelSource source, InputOptions inputs) {
        return new SessionSpec(source, source.file(), SEED, Device.parse("cpu"), 1, 1, false, inputs);
    }
}
