package io.inferbench.maven;

import io.inferbench.cli.ExitCode;
import io.inferbench.cli.InferbenchMain;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

import java.util.Map;

/**
 * {@code inferbench:gate}: the last step of a pull request's check. Passes only on a run this build measured
 * ({@code -Dgate.run}, {@code results/latest} by default, started within {@code -Dgate.maxAgeMinutes}) with at least one
 * cell measured, none failed, and no regression in its own comparison; otherwise the build fails, saying which. A
 * build's exit code alone passes when nothing was measured (the plugin not bound, {@code -Dbench.skip=true}). Needs no
 * project: {@code mvn io.inferbench:inferbench-maven-plugin:gate} works in any folder.
 */
@Mojo(name = "gate", requiresProject = false)
public class GateMojo extends AbstractMojo {
    /** {@code gate.*} options, one element each; {@code -D} wins over these. */
    @Parameter
    private Map<String, String> options;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    @Override
    public void execute() throws MojoFailureException {
        ExitCode exit = InferbenchMain.run(new String[]{"gate"}, PluginOptions.of(options, session.getUserProperties()), System.out, System.err);
        if (exit != ExitCode.OK) {
            throw new MojoFailureException("inferbench gate ended with exit code " + exit.code() + (exit == ExitCode.FINDING
                    ? ": the run it read is not one this build measured cleanly (the [inferbench] gate line says why)"
                    : " (" + RunMojo.meaning(exit) + ")"));
        }
    }
}
