package io.inferbench.maven;

import io.inferbench.cli.ExitCode;
import io.inferbench.cli.Setting;
import org.apache.maven.plugin.logging.Log;

import java.util.Properties;

/**
 * How a goal's failure reaches Maven's own exit code ({@code -Dbench.exitCode}). A failed Maven goal always ends Maven
 * with 1, which inferbench means as a finding; a workflow that must tell a finding (1) from bad input (2), a crash (3)
 * and an undecided comparison (4) sets {@code bench.exitCode=inferbench}, and then Maven's JVM ends with inferbench's own
 * code once the failure is logged. With the default, {@code maven}, the build fails as any failed goal does and the
 * message names inferbench's code.
 */
final class ExitCodes {
    static final String MAVEN = "maven";
    static final String INFERBENCH = "inferbench";

    private ExitCodes() {
    }

    /** Whether {@code p} asks for inferbench's own exit code; refuses a value that is neither. */
    static boolean own(Properties p) {
        String value = p.getProperty(Setting.EXIT_CODE.property(), Setting.EXIT_CODE.defaultValue()).trim();
        if (value.equalsIgnoreCase(INFERBENCH)) {
            return true;
        }
        if (value.equalsIgnoreCase(MAVEN)) {
            return false;
        }
        throw new IllegalArgumentException("-D" + Setting.EXIT_CODE.property() + " is " + MAVEN + " (a failed build, Maven's "
                + "exit code 1) or " + INFERBENCH + " (Maven ends with inferbench's own code); got '" + value + "'");
    }

    /**
     * With {@code bench.exitCode=inferbench}, logs {@code message} and ends Maven's JVM with {@code exit}'s code; otherwise
     * returns, and the goal fails the build as usual.
     */
    static void end(Properties p, ExitCode exit, String message, Log log) {
        boolean own;
        try {
            own = own(p);
        } catch (IllegalArgumentException e) {
            log.error(e.getMessage());
            return;
        }
        if (!own || exit == ExitCode.OK) {
            return;
        }
        log.error(message);
        log.error("inferbench: Maven ends with inferbench's exit code " + exit.code() + " (-D" + Setting.EXIT_CODE.property()
                + "=" + INFERBENCH + ")");
        System.out.flush();
        System.err.flush();
        System.exit(exit.code());
    }
}
