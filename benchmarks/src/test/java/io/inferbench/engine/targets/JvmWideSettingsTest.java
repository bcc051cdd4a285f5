package io.inferbench.engine.targets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a build's open changed of the JVM-wide settings, putting them back for the next build, and when two builds'
 * changes forbid them one JVM. Each case puts back what it changed.
 */
class JvmWideSettingsTest {
    private static final String SET = "ext.JvmWideSettingsTest.set";
    private static final String KEPT = "ext.JvmWideSettingsTest.kept";
    private final Locale locale = Locale.getDefault();

    @AfterEach
    void putBack() {
        System.clearProperty(SET);
        System.clearProperty(KEPT);
        Locale.setDefault(locale);
    }

    @Test
    void whatAnOpenChangedIsNamedWithItsValueAndPutBackForTheNext() {
        System.setProperty(KEPT, "before");
        JvmWideSettings before = JvmWideSettings.now();
        System.setProperty(SET, "first");
        System.clearProperty(KEPT);
        Locale.setDefault(Locale.JAPAN.equals(locale) ? Locale.GERMANY : Locale.JAPAN);
        Map<String, String> changed = JvmWideSettings.now().changedSince(before);
        assertEquals("first", changed.get("system property " + SET));
        assertEquals("(unset)", changed.get("system property " + KEPT));
        assertEquals(Locale.getDefault().toLanguageTag(), changed.get("default locale"));
        assertEquals(3, changed.size(), "nothing else changed: " + changed);

        before.restore(changed.keySet());
        assertNull(System.getProperty(SET), "a property the first build set is unset again");
        assertEquals("before", System.getProperty(KEPT), "a property it removed is back");
        assertEquals(locale, Locale.getDefault());
        assertTrue(JvmWideSettings.now().changedSince(before).isEmpty());
    }

    @Test
    void onlyWhatTheFirstBuildChangedIsPutBack() {
        JvmWideSettings before = JvmWideSettings.now();
        System.setProperty(SET, "the first build's");
        Map<String, String> changed = JvmWideSettings.now().changedSince(before);
        System.setProperty(KEPT, "set since, by another hand");
        before.restore(changed.keySet());
        assertNull(System.getProperty(SET));
        assertEquals("set since, by another hand", System.getProperty(KEPT), "a change the first build did not make stays");
    }

    @Test
    void twoBuildsDifferWhereTheirChangesDo() {
        assertNull(JvmWideSettings.differ(Map.of(), Map.of()), "neither changed anything");
        assertNull(JvmWideSettings.differ(Map.of("system property x", "1"), Map.of("system property x", "1")),
                "both set the same: each sees what it would alone");
        assertEquals("system property x: '1' by the build opened first, '2' by this one",
                JvmWideSettings.differ(Map.of("system property x", "1"), Map.of("system property x", "2")));
        assertEquals("default locale: left as it was by the build opened first, 'ja-JP' by this one; system property x: "
                        + "'1' by the build opened first, left as it was by this one",
                JvmWideSettings.differ(Map.of("system property x", "1"), Map.of("default locale", "ja-JP")));
    }
}
