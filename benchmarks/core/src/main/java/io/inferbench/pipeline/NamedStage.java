package io.inferbench.pipeline;

import io.inferbench.runner.TimeAccount;

import java.util.List;

/** A stage's name, its part of the time account and the stages it needs, given once: what every stage but its work shares. */
abstract class NamedStage implements Stage {
    private final String name;
    private final TimeAccount.Phase phase;
    private final List<String> needs;

    NamedStage(String name, TimeAccount.Phase phase, List<String> needs) {
        this.name = name;
        this.phase = phase;
        this.needs = List.copyOf(needs);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final TimeAccount.Phase phase() {
        return phase;
    }

    @Override
    public final List<String> needs() {
        return needs;
    }
}
