package io.inferbench.engine.targets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeSet;

/**
 * What one JVM holds for all the code in it, however many class-loader layers it has: its system properties, default
 * locale and default handler of uncaught exceptions. A build that changes one when it opens changes it for every build
 * beside it ({@code -Dbench.ab.mode=passes}): a second build whose open changes what the first left (another value, or a
 * setting the first left alone) would have each run with the other's, and cannot share the JVM. Both setting the same
 * value changes nothing the second time, and keeps one JVM.
 *
 * <p>Nothing is put back: a jar both builds share is loaded once, and what its classes set once (at the first build's
 * open) must stay for both. So a setting the first build changed and the second did not is not seen (the second may
 * rely on its absence), nor is a setting changed later, at a call or on another thread; nor the default time zone and
 * the security providers, which the first read initializes (about 10 and 130 ms on a 2-core machine, inside the open's
 * cold start); nor what cannot be read back (a {@code URL} stream handler factory, a native library's own globals). A
 * snapshot clones the properties: well under a millisecond of the open's cold start.
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

    /** A setting's value in this snapshot, as {@link #changedSince} names settings and values. */
    String valueOf(String setting) {
        if (setting.startsWith(PROPERTY)) {
            String value = properties.getProperty(setting.substring(PROPERTY.length()));
            return value == null ? "(unset)" : value;
        }
        if (setting.equals(LOCALE)) {
            return locale.toLanguageTag();
        }
        return uncaught == null ? "(none)" : uncaught.getClass().getName();
    }

    /**
     * Why a build cannot share a JVM with the one opened before it, or null when it can: each setting its open changed
     * ({@code changed}) from what it found ({@code found}, as the first build's open left it) names both values. The
     * same change by both changes nothing the second time, so two builds that set the same keep one JVM.
     */
    static String differ(JvmWideSettings found, Map<String, String> changed) {
        if (changed.isEmpty()) {
            return null;
        }
        List<String> each = new ArrayList<>();
        changed.forEach((setting, value) -> each.add(setting + ": '" + found.valueOf(setting)
                + "' as the build opened first left it, '" + value + "' by this one"));
        return String.join("; ", each);
    }
}
