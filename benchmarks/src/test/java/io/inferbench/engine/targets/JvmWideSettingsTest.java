package io.inferbench.engine.targets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a build's open changed of the JVM-wide settings, and when a second build's changes forbid it the first's JVM.
 * Each case puts back what it changed.
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
    void whatAnOpenChangedIsNamedWithItsValue() {
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
        assertEquals("before", before.valueOf("system property " + KEPT));
        assertEquals("(unset)", before.valueOf("system property " + SET));
    }

    /**
     * The first build set a property; a second that sets the same value changes nothing and may share the JVM; one
     * that sets another value, or a setting the first left alone, may not, and is told both values.
     */
    @Test
    void aSecondBuildMayShareTheJvmOnlyWhereItChangesNothingTheFirstLeft() {
        System.setProperty(SET, "1"); // as the first build's open left it
        JvmWideSettings found = JvmWideSettings.now();
        System.setProperty(SET, "1");
        assertNull(JvmWideSettings.differ(found, JvmWideSettings.now().changedSince(found)), "the same value: nothing changed");

        System.setProperty(SET, "2");
        assertEquals("system property " + SET + ": '1' as the build opened first left it, '2' by this one",
                JvmWideSettings.differ(found, JvmWideSettings.now().changedSince(found)));

        System.setProperty(SET, "1");
        System.setProperty(KEPT, "only the second's");
        assertEquals("system property " + KEPT + ": '(unset)' as the build opened first left it, 'only the second's' by "
                + "this one", JvmWideSettings.differ(found, JvmWideSettings.now().changedSince(found)));
    }

    @Test
    void aSnapshotIsACopyNotAView() {
        JvmWideSettings before = JvmWideSettings.now();
        System.setProperty(SET, "after the snapshot");
        assertEquals("(unset)", before.valueOf("system property " + SET));
        assertTrue(JvmWideSettings.now().changedSince(before).containsKey("system property " + SET));
    }
}
