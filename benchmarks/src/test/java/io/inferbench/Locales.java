package io.inferbench;

import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Default locales that break number formatting written the naive way, as JMH's format tests use: a decimal comma
 * (German), a dotless i (Turkish), and other digits altogether (Arabic-Indic, Devanagari). {@link #use} checks that
 * the JVM really formats differently under each, so a test run under it cannot pass by accident.
 */
public final class Locales {
    private static final Locale ORIGINAL = Locale.getDefault();

    private Locales() {
    }

    public static Stream<Locale> all() {
        return List.of(Locale.ROOT, Locale.GERMANY, Locale.forLanguageTag("tr-TR"),
                Locale.forLanguageTag("ar-SA-u-nu-arab"), Locale.forLanguageTag("hi-IN-u-nu-deva")).stream();
    }

    /** Makes {@code locale} the default, and checks that it is in effect where it matters. */
    public static void use(Locale locale) {
        Locale.setDefault(locale);
        String formatted = String.format("%.1f", 1.5);
        switch (locale.toLanguageTag()) {
            case "de-DE" -> assertEquals("1,5", formatted);
            case "ar-SA-u-nu-arab" -> assertEquals("١٫٥", formatted);
            case "hi-IN-u-nu-deva" -> assertEquals("१.५", formatted);
            case "tr-TR" -> assertEquals("ı", "I".toLowerCase());
            default -> assertEquals("1.5", formatted);
        }
    }

    public static void restore() {
        Locale.setDefault(ORIGINAL);
    }
}
