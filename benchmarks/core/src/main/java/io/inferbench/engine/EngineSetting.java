package io.inferbench.engine;

import io.inferbench.BenchmarkException;

import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;

/**
 * An {@link io.inferbench.option.Option} an engine owns ({@link EngineProvider#settings()}): named, defaulted and documented by the engine's module
 * rather than by the core's table, so that a setting about one engine's library lives, and leaves, with that engine.
 * docs/options.md lists these rows after the harness's own, and an unknown {@code bench.*} name is checked against both.
 *
 * @param property     the property's name, as in {@code -Dbench.batch=1,2}
 * @param defaultValue the default as text; empty means "not set", and {@code meaning} says what that does
 * @param meaning      what the property does, in the options table's words (Markdown, no {@code |})
 */
public record EngineSetting(String property, String defaultValue, String meaning) implements io.inferbench.option.Option {
    public EngineSetting {
        if (meaning.isBlank() || meaning.contains("|")) {
            throw new IllegalArgumentException(property + ": a meaning is one table cell, not blank and without '|'");
        }
    }

    /**
     * The choice {@code value} names among an enum's constants, each called by its lower-case name, or an error naming
     * the property and listing every choice.
     *
     * @param meaning what the choices mean, for the error
     */
    public static <E extends Enum<E>> E choice(Class<E> type, String property, String value, String meaning) {
        E[] choices = type.getEnumConstants();
        return Arrays.stream(choices).filter(c -> label(c).equals(value.trim())).findFirst()
                .orElseThrow(() -> new BenchmarkException("Unknown -D" + property + "=" + value + ": expected one of "
                        + Arrays.stream(choices).map(EngineSetting::label).toList() + " (" + meaning + ")"));
    }

    /** This setting's value as one of an enum's constants ({@link #choice(Class, String, String, String)}). */
    public <E extends Enum<E>> E choice(Class<E> type, Properties p) {
        return choice(type, property, value(p), meaning);
    }

    /** A choice as a property takes it and {@code run.json} records it: the constant's name in lower case. */
    public static String label(Enum<?> choice) {
        return choice.name().toLowerCase(Locale.ROOT);
    }
}
