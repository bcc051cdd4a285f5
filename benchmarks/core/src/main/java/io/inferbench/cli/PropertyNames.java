package io.inferbench.cli;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.RegimeSetting;
import io.inferbench.compare.AbSetting;
import io.inferbench.compare.CompareSetting;
import io.inferbench.engine.Engines;
import io.inferbench.option.Option;
import io.inferbench.precision.AgreementSetting;
import io.inferbench.serve.ServeSetting;
import io.inferbench.workload.WorkloadSetting;
import org.apache.commons.text.similarity.LevenshteinDistance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Every property inferbench reads, by name, and the refusal of any other {@code bench.*} or {@code compare.*} one: a
 * typo must not silently run the default. Each property is owned by the capability that reads it; this class only
 * knows their names.
 */
public final class PropertyNames {
    private PropertyNames() {
    }

    /**
     * Refuses any {@code bench.*} or {@code compare.*} property that is neither a {@link Setting} nor an engine's own,
     * naming the closest known one: a typo such as {@code -Dbench.batches=1,2} must not silently run the default.
     */
    public static void checkKnown(Properties p) {
        List<String> unknown = new TreeSet<>(p.stringPropertyNames()).stream()
                .filter(name -> Setting.owned(name) || misspeltPrefix(name) != null)
                .filter(name -> !knownProperties().contains(name))
                .filter(name -> !name.startsWith(Setting.TARGET_PROPERTY_PREFIX)).toList();
        if (unknown.isEmpty()) {
            return;
        }
        List<String> problems = new ArrayList<>();
        for (String name : unknown) {
            String meant = Setting.owned(name) ? closest(name) : misspeltPrefix(name);
            problems.add("-D" + name + " (did you mean -D" + meant + "?)");
        }
        throw new BenchmarkException("Unknown propert" + (unknown.size() == 1 ? "y " : "ies ") + String.join(", ", problems)
                + ": inferbench would ignore " + (unknown.size() == 1 ? "it" : "them") + " and run its default instead. "
                + "Fix the name; every property is listed in README.md under Options");
    }

    /**
     * The setting a property names with its prefix misspelt ({@code bnech.batch}, {@code bech.seq}): a prefix within two
     * edits of {@code bench} or {@code compare} and the rest exactly a setting's. Null for any other property: Maven's
     * and the JVM's own are never taken for a typo.
     */
    static String misspeltPrefix(String name) {
        int dot = name.indexOf('.');
        if (dot <= 0 || Setting.owned(name)) {
            return null;
        }
        String prefix = name.substring(0, dot);
        String rest = name.substring(dot);
        LevenshteinDistance distance = LevenshteinDistance.getDefaultInstance();
        return knownProperties().stream()
                .filter(known -> known.endsWith(rest) && known.length() > rest.length())
                .filter(known -> distance.apply(prefix, known.substring(0, known.length() - rest.length())) <= 2)
                .findFirst().orElse(null);
    }

    /**
     * Every property inferbench reads, each owned by the capability that reads it: the run's own ({@link Setting}),
     * serving's, a workload's, the precision check's, the regime rules', {@code compare}'s, the commands' and, last, each
     * engine's on the class path ({@link Engines#settings()}). docs/options.md's table is these rows in this order.
     */
    public static List<Option> all() {
        List<Option> all = new ArrayList<>();
        all.addAll(Arrays.asList(Setting.values()));
        all.addAll(Arrays.asList(ServeSetting.values()));
        all.addAll(Arrays.asList(WorkloadSetting.values()));
        all.addAll(Arrays.asList(AgreementSetting.values()));
        all.addAll(Arrays.asList(RegimeSetting.values()));
        all.addAll(Arrays.asList(CompareSetting.values()));
        all.addAll(Arrays.asList(io.inferbench.compare.AbSetting.values()));
        all.addAll(Arrays.asList(CommandSetting.values()));
        all.addAll(Engines.settings());
        return List.copyOf(all);
    }

    static List<String> knownProperties() {
        return all().stream().map(Option::property).toList();
    }

    static String closest(String name) {
        LevenshteinDistance distance = LevenshteinDistance.getDefaultInstance();
        return knownProperties().stream()
                .min(Comparator.comparingInt((String known) -> distance.apply(name, known)).thenComparing(known -> known))
                .orElseThrow();
    }
}
