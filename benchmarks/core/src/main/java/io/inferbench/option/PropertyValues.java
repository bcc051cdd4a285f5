package io.inferbench.option;

import io.inferbench.BenchmarkException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * One property's value as a number, a list or a flag, each refused with the property's name and what it takes: the
 * parsing every capability's reader of its {@link Option}s shares.
 */
public final class PropertyValues {
    private PropertyValues() {
    }

    public static double percent(Option setting, Properties p, double low, double high) {
        double value = parseDouble(setting, p);
        if (value < low || value > high) {
            throw new BenchmarkException("-D" + setting.property() + " is a percentage between " + low + " and " + high
                    + ", got " + value);
        }
        return value / 100;
    }

    public static long millis(Option setting, Properties p) {
        double seconds = parseDouble(setting, p);
        if (!(seconds > 0) || seconds > 86_400) {
            throw new BenchmarkException("-D" + setting.property() + " must be a number of seconds above 0 (at most a day), got "
                    + setting.value(p));
        }
        return Math.max(1, Math.round(seconds * 1000));
    }

    public static List<Double> doubles(Option setting, Properties p) {
        if (setting.userValue(p).isEmpty()) {
            return List.of();
        }
        List<Double> values = new ArrayList<>();
        for (String value : names(setting, p)) {
            try {
                values.add(Double.parseDouble(value));
            } catch (NumberFormatException e) {
                throw new BenchmarkException("-D" + setting.property() + " must be numbers, got '" + value + "'", e);
            }
        }
        return List.copyOf(new LinkedHashSet<>(values));
    }

    public static boolean bool(Option setting, Properties p) {
        String value = setting.value(p);
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new BenchmarkException("-D" + setting.property() + " must be true or false, got '" + value + "'");
    }

    public static List<String> names(Option setting, Properties p) {
        String value = setting.value(p);
        List<String> items = Arrays.stream(value.split(",", -1)).map(String::trim).toList();
        if (items.stream().allMatch(String::isEmpty)) {
            throw new BenchmarkException("-D" + setting.property() + " is empty: give at least one value");
        }
        if (items.stream().anyMatch(String::isEmpty)) {
            // 1,,2 or 1,2, is a value lost in typing, not a list of two: say so rather than guess.
            throw new BenchmarkException("-D" + setting.property() + "=" + value + " has an empty item: give the values "
                    + "separated by single commas, as in -D" + setting.property() + "="
                    + String.join(",", items.stream().filter(s -> !s.isEmpty()).toList()));
        }
        return items.stream().distinct().toList();
    }

    public static List<Integer> positiveInts(Option setting, Properties p) {
        List<Integer> values = new ArrayList<>();
        for (String value : names(setting, p)) {
            values.add(positive(parseInt(value, setting, 1), setting));
        }
        return List.copyOf(new LinkedHashSet<>(values));
    }

    public static int positiveInt(Option setting, Properties p) {
        return positive(parseInt(setting.value(p), setting, 1), setting);
    }

    public static int positive(int value, Option setting) {
        if (value <= 0) {
            throw new BenchmarkException(setting.property() + " must be 1 or more, got " + value
                    + ": a forward pass needs at least one sample and one token, a sweep at least one pass and one fork");
        }
        return value;
    }

    public static int nonNegativeInt(Option setting, Properties p) {
        int value = parseInt(setting.value(p), setting);
        if (value < 0) {
            throw new BenchmarkException(setting.property() + " must be 0 or more, got " + value);
        }
        return value;
    }

    public static int parseInt(String value, Option setting) {
        return parseInt(value, setting, Integer.MIN_VALUE);
    }

    /** As above, for a setting whose values start at {@code min}, which a value out of range is told. */
    static int parseInt(String value, Option setting, int min) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new BenchmarkException(setting.property() + " must be " + wholeNumber(value, min, Integer.MAX_VALUE)
                    + ", got '" + value + "'", e);
        }
    }

    public static long parseLong(Option setting, Properties p) {
        String value = setting.value(p);
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new BenchmarkException(setting.property() + " must be " + wholeNumber(value, Long.MIN_VALUE, Long.MAX_VALUE)
                    + ", got '" + value + "'", e);
        }
    }

    /**
     * What a value that did not parse should have been: a whole number, or, for one that is a whole number too large
     * (99999999999), one in the range the setting takes.
     */
    private static String wholeNumber(String value, long min, long max) {
        return value.trim().matches("[-+]?\\d+") ? "a whole number from " + min + " to " + max : "a whole number";
    }

    public static double parseDouble(Option setting, Properties p) {
        String value = setting.value(p);
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new BenchmarkException("-D" + setting.property() + " must be a number, got '" + value + "'", e);
        }
    }

    /** {@code NAME=SIZE,...} with positive sizes, each name once, in the order given (e.g. {@code -Dbench.dims}). */
    public static Map<String, Long> namedSizes(Option setting, Properties p) {
        Map<String, Long> sizes = new LinkedHashMap<>();
        for (String pair : setting.value(p).split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            String[] parts = pair.split("=", -1);
            long size;
            try {
                size = parts.length == 2 ? Long.parseLong(parts[1].trim()) : -1;
            } catch (NumberFormatException e) {
                size = -1;
            }
            if (parts.length != 2 || parts[0].isBlank() || size <= 0) {
                throw new BenchmarkException("-D" + setting.property() + " has '" + pair.trim() + "'; give NAME=SIZE pairs "
                        + "with positive sizes, comma-separated, e.g. -D" + setting.property() + "=height=64,width=64");
            }
            if (sizes.put(parts[0].trim(), size) != null) {
                throw new BenchmarkException("-D" + setting.property() + " gives '" + parts[0].trim() + "' twice; give it once");
            }
        }
        return sizes;
    }
}
