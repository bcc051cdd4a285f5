package io.inferbench.option;

import java.util.Optional;
import java.util.Properties;

/**
 * A property a user can set, named, defaulted and documented by the capability that reads it: the run's own
 * ({@code cli.Setting}), serving's ({@code serve.ServeSetting}), a workload's, the precision check's, the regime
 * rules', {@code compare}'s, the commands' and each engine's ({@code engine.EngineSetting}). docs/options.md lists
 * them all, in that order, and an unknown name in inferbench's namespaces is checked against all of them.
 *
 * <p>Defaults are text as a user would type them. An empty default means "not set", and the meaning says what that
 * does.
 */
public interface Option {
    /** The property's name, as in {@code -Dbench.batch=1,2}. */
    String property();

    /** The default as text; empty means "not set" (see {@link #meaning()}). */
    String defaultValue();

    /** What the property does, in the options table's words (Markdown, one table cell: no {@code |}). */
    String meaning();

    /** The user's value when set and not blank, else the default. */
    default String value(Properties p) {
        return userValue(p).orElse(defaultValue());
    }

    /** The user's value, when set and not blank (Maven passes an unset property as nothing, never as a default). */
    default Optional<String> userValue(Properties p) {
        String value = p.getProperty(property());
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /** This option's row of the options table: {@code | `name` | `default` | meaning |}. */
    default String markdownRow() {
        return "| `" + property() + "` | " + (defaultValue().isEmpty() ? "*(empty)*" : "`" + defaultValue() + "`") + " | "
                + meaning() + " |";
    }

    /** An option's three texts, held by each constant of a capability's options enum ({@link Defined}). */
    record Definition(String property, String defaultValue, String meaning) implements Option {
    }

    /** An option that answers from its {@link Definition}: what a capability's options enum implements. */
    interface Defined extends Option {
        Definition definition();

        @Override
        default String property() {
            return definition().property();
        }

        @Override
        default String defaultValue() {
            return definition().defaultValue();
        }

        @Override
        default String meaning() {
            return definition().meaning();
        }
    }
}
