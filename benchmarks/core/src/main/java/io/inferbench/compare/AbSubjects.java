package io.inferbench.compare;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.results.AbSection;
import io.inferbench.results.RunConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What differs between an A/B run's two subjects, and whether they can be compared at all. They share every setting of
 * the run (the engine, the device, the sweep, the threads), so what may differ is what each is: its model's bytes, or
 * its target's code. Subjects whose models take different inputs measure different work, and are refused before
 * anything is measured; identical subjects are an A/A run.
 */
public final class AbSubjects {
    private AbSubjects() {
    }

    /**
     * Refuses A and B when their models take different inputs (names, types or shapes, the axes the sweep binds): their
     * cells would time different work under one name.
     *
     * @throws BenchmarkException naming both models' inputs and the fix
     */
    public static void checkComparable(AbSection.Subject a, AbSection.Subject b) {
        if (a.models().size() != b.models().size()) {
            throw new BenchmarkException("A has " + a.models().size() + " model(s) and B " + b.models().size()
                    + ": an A/B run compares one model with one; give one in -Dbench.model and one in -Dbench.ab.baseline");
        }
        for (int i = 0; i < a.models().size(); i++) {
            RunConfig.ModelInfo ma = a.models().get(i);
            RunConfig.ModelInfo mb = b.models().get(i);
            if (!Objects.equals(inputs(ma.inputs()), inputs(mb.inputs()))) {
                throw new BenchmarkException("A's model " + Text.shortModelName(ma.name()) + " takes inputs "
                        + inputs(ma.inputs()) + ", and B's " + Text.shortModelName(mb.name()) + " takes " + inputs(mb.inputs())
                        + ": their cells would time different work, so A and B cannot be compared. Compare two versions of "
                        + "one model (a re-export, a quantized copy) with the same inputs, or measure each in a run of its own");
            }
        }
    }

    private static String inputs(RunConfig.ModelInputs inputs) {
        if (inputs == null) {
            return "none";
        }
        return "batch axis " + inputs.batchAxis() + ", seq axis " + inputs.seqAxis() + ", " + inputs.dims() + ", "
                + inputs.inputs().stream().map(i -> i.name() + " " + i.type() + " " + i.shape()).toList();
    }

    /** What differs between A and B, one line each, for people; empty when they are the same subject (A/A). */
    public static List<String> differences(AbSection.Subject a, AbSection.Subject b) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(a.models().size(), b.models().size()); i++) {
            RunConfig.ModelInfo ma = a.models().get(i);
            RunConfig.ModelInfo mb = b.models().get(i);
            if (!Objects.equals(ma.sha256(), mb.sha256())) {
                out.add("model: A " + Text.shortModelName(ma.name()) + " (" + sha(ma.sha256()) + ", " + ma.sizeBytes() + " bytes), B "
                        + Text.shortModelName(mb.name()) + " (" + sha(mb.sha256()) + ", " + mb.sizeBytes() + " bytes)");
            }
        }
        List<RunConfig.TargetCode> ta = a.targets() == null ? List.of() : a.targets();
        List<RunConfig.TargetCode> tb = b.targets() == null ? List.of() : b.targets();
        for (int i = 0; i < Math.min(ta.size(), tb.size()); i++) {
            RunConfig.TargetCode ca = ta.get(i);
            RunConfig.TargetCode cb = tb.get(i);
            if (!Objects.equals(ca.sha256(), cb.sha256())) {
                List<String> only = new ArrayList<>();
                ca.classpath().stream().filter(e -> cb.classpath().stream().noneMatch(o -> o.sha256().equals(e.sha256())))
                        .forEach(e -> only.add("A's " + Text.shortModelName(e.path()) + " (" + sha(e.sha256()) + ")"));
                cb.classpath().stream().filter(e -> ca.classpath().stream().noneMatch(o -> o.sha256().equals(e.sha256())))
                        .forEach(e -> only.add("B's " + Text.shortModelName(e.path()) + " (" + sha(e.sha256()) + ")"));
                out.add("code of " + ca.className() + ": A " + sha(ca.sha256()) + ", B " + sha(cb.sha256())
                        + (only.isEmpty() ? "" : "; differing entries: " + String.join(", ", only)));
            }
        }
        return List.copyOf(out);
    }

    /** A subject in a few words for the console: its model, or its class path, paths shortened. */
    public static String describe(List<String> models, List<java.nio.file.Path> classpath) {
        if (!classpath.isEmpty()) {
            return "the code in " + String.join(":", classpath.stream().map(p -> shortPath(p.toString())).toList());
        }
        return "model " + String.join(", ", models.stream().map(AbSubjects::shortPath).toList());
    }

    /** A path's last two parts, enough to tell {@code base/target/classes} from {@code pr/target/classes}. */
    static String shortPath(String path) {
        java.nio.file.Path p = java.nio.file.Path.of(path);
        int n = p.getNameCount();
        return n <= 3 ? path : "\u2026/" + p.subpath(n - 3, n);
    }

    private static String sha(String sha256) {
        return sha256 == null ? "no hash" : "sha256 " + sha256.substring(0, Math.min(12, sha256.length()));
    }
}
