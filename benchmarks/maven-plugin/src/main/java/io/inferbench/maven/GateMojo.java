package io.inferbench.maven;

import io.inferbench.cli.ExitCode;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * {@code inferbench:gate}: the last step of a pull request's check. Passes only on a run this build measured
 * ({@code -Dgate.run}, {@code results/latest} by default, started within {@code -Dgate.maxAgeMinutes}) with at least one
 * cell measured, none failed, and no regression in its own comparison; otherwise the build fails, saying which. A
 * build's exit code alone passes when nothing was measured (the plugin not bound, {@code -Dbench.skip=true}). Needs no
 * project: {@code mvn io.inferbench:inferbench-maven-plugin:gate} works in any folder.
 */
@Mojo(name = "gate", requiresProject = false)
public class GateMojo extends CommandMojo {
    @Override
    String command() {
        return "gate";
    }

    @Override
    String failure(ExitCode exit) {
        return exit == ExitCode.FINDING ? "inferbench gate ended with exit code 1: the run it read is not one this build "
                + "measured cleanly (the [inferbench] gate line says why)" : super.failure(exit);
    }
}
