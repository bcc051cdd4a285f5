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
 * {@code inferbench:compare}: two runs' {@code run.json}, baseline against candidate, as
 * {@code exec:java@compare} does in inferbench's own build ({@code -Dbaseline=A/run.json -Dcandidate=B/run.json
 * [-Dout=folder]}, docs/statistics-and-compare.md). Needs no project: {@code mvn io.inferbench:inferbench-maven-plugin:compare}
 * works in any folder. The build fails with the command's exit code in its message: 1 a regression, 2 runs that cannot
 * be compared.
 */
@Mojo(name = "compare", requiresProject = false)
public class CompareMojo extends AbstractMojo {
    /** {@code compare.*} options, one element each; {@code -D} wins over these. */
    @Parameter
    private Map<String, String> options;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    @Override
    public void execute() throws MojoFailureException {
        ExitCode exit = InferbenchMain.run(new String[]{"compare"}, PluginOptions.of(options, session.getUserProperties()), System.out, System.err);
        if (exit != ExitCode.OK) {
            throw new MojoFailureException("inferbench compare ended with exit code " + exit.code() + " ("
                    + RunMojo.meaning(exit) + ")");
        }
    }
}
