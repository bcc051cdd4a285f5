package io.inferbench.engine.targets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one JVM holds for all the code in it, however many class-loader layers it has: its system properties, default
 * locale and default handler of uncaught exceptions. A build that changes one when it opens changes it for every build
 * beside it: two builds in one JVM ({@code -Dbench.ab.mode=passes}) each see what they would alone only where they
 * change the same settings to the same values.
 *
 * <p>A snapshot is taken around a target's open, in the opening thread, and costs well under a millisecond of the
 * open's cold start (a copy of the properties). Not seen: a setting changed later, at a call or on another thread; the
 * default time zone and the security providers, which the first read initializes (about 10 and 130 ms on a 2-core
 * machine, inside the open's cold start); and what cannot be read back (a {@code URL} stream handler factory, a native
 * library's own globals).
 */
final class JvmWideSettings {
    private static final String PROPERTY = "system property ";
    private static final String LOCALE = "default locale";
    private static final String UNCAUGHT = "default uncaught exception handler";

    private final Properties properties;
    private final Locale locale;
    private final Thread.UncaughtExceptionHandler uncaught;

    private JvmWideSettings() {
        properties = (Properties) System.getProperties().clone();
        locale = Locale.getDefault();
        uncaught = Thread.getDefaultUncaughtExceptionHandler();
    }

    /** The settings as they are now. */
    static JvmWideSettings now() {
        return new JvmWideSettings();
    }

    /**
     * What differs from {@code before} to this, by setting, each as it is now ({@code (unset)} for a property removed),
     * in the order: properties by name, then the others; empty when nothing changed.
     */
    Map<String, String> changedSince(JvmWideSettings before) {
        Map<String, String> changed = new LinkedHashMap<>();
        TreeSet<String> names = new TreeSet<>(properties.stringPropertyNames());
        names.addAll(before.properties.stringPropertyNames());
        for (String name : names) {
            String now = properties.getProperty(name);
            if (!Objects.equals(now, before.properties.getProperty(name))) {
                changed.put(PROPERTY + name, now == null ? "(unset)" : now);
            }
        }
        if (!locale.equals(before.locale)) {
            changed.put(LOCALE, locale.toLanguageTag());
        }
        if (uncaught != before.uncaught) {
            changed.put(UNCAUGHT, uncaught == null ? "(none)" : uncaught.getClass().getName());
        }
        return changed;
    }

    /**
     * Puts back what {@code this} held of {@code settings} (named as {@link #changedSince} names them), which a build
     * changed: so that the next build opens on the settings the first found, and its own changes can be told from the
     * first's. Only what the first build changed is touched.
     */
    void restore(Set<String> settings) {
        for (String setting : settings) {
            if (setting.startsWith(PROPERTY)) {
                String name = setting.substring(PROPERTY.length());
                String value = properties.getProperty(name);
                if (value == null) {
                    System.clearProperty(name);
                } else {
                    System.setProperty(name, value);
                }
            } else if (setting.equals(LOCALE)) {
                Locale.setDefault(locale);
            } else if (setting.equals(UNCAUGHT)) {
                Thread.setDefaultUncaughtExceptionHandler(uncaught);
            }
        }
    }

    /**
     * Why two builds cannot share a JVM, or null when they can: {@code first}'s changes at its open against
     * {@code second}'s from the same settings, each setting that differs with both values.
     */
    static String differ(Map<String, String> first, Map<String, String> second) {
        if (first.equals(second)) {
            return null;
        }
        TreeSet<String> keys = new TreeSet<>(first.keySet());
        keys.addAll(second.keySet());
        List<String> each = new ArrayList<>();
        for (String key : keys) {
            String x = first.get(key);
            String y = second.get(key);
            if (!Objects.equals(x, y)) {
                each.add(key + ": " + (x == null ? "left as it was" : "'" + x + "'") + " by the build opened first, "
                        + (y == null ? "left as it was" : "'" + y + "'") + " by this one");
            }
        }
        return String.join("; ", each);
    }
}
