package io.inferbench.runner;

import io.inferbench.engine.EngineSetting;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A choice about the JVMs that measure, made by one property: an enum whose constants are the choices, each called by
 * its lower-case name. The parsing, the error that lists the choices, and what a choice adds to a measuring JVM's
 * environment are shared here, so that a new such option is one enum, its documentation and its property
 * ({@code io.inferbench.cli.Setting}, which says what each choice means).
 */
public interface JvmOption {
    /** The choice as the property takes it and {@code run.json} records it: the constant's name in lower case. */
    default String label() {
        return EngineSetting.label((Enum<?>) this);
    }

    /**
     * The variables this choice adds to a measuring JVM's environment, given the environment it would otherwise inherit;
     * none by default. A variable the user has set already is never overridden.
     */
    default Map<String, String> environment(Map<String, String> inherited) {
        return Map.of();
    }

    /**
     * The choice called {@code value}, or an error naming the property and listing every choice.
     *
     * @param meaning what the choices mean, for the error
     */
    static <E extends Enum<E> & JvmOption> E parse(Class<E> type, String property, String value, String meaning) {
        return EngineSetting.choice(type, property, value, meaning);
    }

    /** The variables of {@code names} that are set in {@code environment}, in that order: what was in effect, for the record. */
    static Map<String, String> inEffect(Map<String, String> environment, List<String> names) {
        Map<String, String> inEffect = new LinkedHashMap<>();
        for (String name : names) {
            if (environment.containsKey(name)) {
                inEffect.put(name, environment.get(name));
            }
        }
        return inEffect;
    }
}
