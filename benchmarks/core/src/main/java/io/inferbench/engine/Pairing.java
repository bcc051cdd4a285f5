package io.inferbench.engine;

import io.inferbench.model.ModelSource;

/**
 * One engine on one device with one model it opens: what a run opens a session for. Every stage that opens sessions
 * takes its pairings from {@link Pairings}, the one place that decides which engine runs which model.
 *
 * @param engine the engine's name ({@code -Dbench.backend})
 * @param device as the run names it: {@code cpu}, {@code cuda:0}
 * @param model  the model's name as the user gave it ({@code -Dbench.model}), as cells and results name it
 * @param source what that name is
 */
public record Pairing(String engine, String device, String model, ModelSource source) {

    /** {@code engine/device/model}, as progress lines and errors name a session. */
    public String label() {
        return engine + "/" + device + "/" + model();
    }
}
