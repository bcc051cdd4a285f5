package io.inferbench.ci;

/** The one assertion the checks use: a rule and what was read when it broke. */
final class Expect {

    /** A rule a command's output broke; its message is the rule and the values that broke it. */
    static final class Failed extends RuntimeException {
        Failed(String message) {
            super(message);
        }
    }

    private Expect() {
    }

    static void that(boolean holds, String rule, Object... read) {
        if (!holds) {
            StringBuilder message = new StringBuilder(rule);
            for (Object value : read) {
                message.append(message.length() == rule.length() ? ": " : ", ").append(value);
            }
            throw new Failed(message.toString());
        }
    }
}
