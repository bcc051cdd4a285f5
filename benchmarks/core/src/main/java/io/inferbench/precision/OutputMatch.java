package io.inferbench.precision;

import io.inferbench.engine.OutputSpec;

import java.util.List;

/**
 * Whether two models' outputs can be compared value by value: the same names in the same order, the same element type
 * (float, which is what is read), and the same declared dimensions, where a symbolic dimension ({@code batch}) matches
 * any other symbolic one and a fixed one must be equal. Undeclared outputs (TorchScript) are compared by size at run
 * time instead.
 */
public final class OutputMatch {
    private OutputMatch() {
    }

    /** Why {@code candidate}'s outputs cannot be compared with {@code reference}'s, or null when they can. */
    public static String refusal(List<OutputSpec> reference, List<OutputSpec> candidate) {
        if (reference.isEmpty() || candidate.isEmpty()) {
            return "a model declares no outputs";
        }
        List<String> refNames = reference.stream().map(OutputSpec::name).toList();
        List<String> candNames = candidate.stream().map(OutputSpec::name).toList();
        boolean declared = reference.get(0).declared() && candidate.get(0).declared();
        if (declared && !refNames.equals(candNames)) {
            return "the outputs differ in name: " + candNames + " against the reference's " + refNames;
        }
        OutputSpec r = reference.get(0);
        OutputSpec c = candidate.get(0);
        if (!"float".equals(c.type()) || !"float".equals(r.type())) {
            return "the first output must be float on both to be compared: " + c + " against the reference's " + r;
        }
        if (!declared) {
            return null;
        }
        if (r.dims().size() != c.dims().size()) {
            return "the outputs differ in shape: " + c + " against the reference's " + r;
        }
        for (int i = 0; i < r.dims().size(); i++) {
            String a = r.dims().get(i);
            String b = c.dims().get(i);
            if ((fixed(a) || fixed(b)) && !a.equals(b)) {
                return "the outputs differ in shape: " + c + " against the reference's " + r + " (dimension " + i + ")";
            }
        }
        return null;
    }

    /** Whether rows of this output are class scores: a declared {@code [batch, classes]} with two or more classes. */
    public static boolean classifier(OutputSpec output) {
        if (!output.declared()) {
            return false;
        }
        List<String> dims = output.dims();
        return dims.size() == 2 && fixed(dims.get(1)) && Long.parseLong(dims.get(1)) >= 2;
    }

    /** A fixed dimension is a number; a symbolic one is a name, or {@code ?} when it has none. */
    private static boolean fixed(String dim) {
        return !dim.isEmpty() && dim.chars().allMatch(Character::isDigit);
    }
}
