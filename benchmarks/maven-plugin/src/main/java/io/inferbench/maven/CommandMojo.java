package io.inferbench.maven;

import io.inferbench.cli.ExitCode;
import io.inferbench.cli.InferbenchMain;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

import java.util.Map;
import java.util.Properties;

/**
 * A goal that runs one inferbench command in Maven's JVM, reading its options from the goal's {@code <options>} and
 * {@code -D} (which wins), and failing the build with the command's exit code when it is not 0.
 */
abstract class CommandMojo extends AbstractMojo {
    /** The command's options, one element each; {@code -D} wins over these. */
    @Parameter
    private Map<String, String> options;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    @Parameter(defaultValue = "${project}", readonly = true)
    private MavenProject project;

    @Parameter(defaultValue = "${plugin}", readonly = true)
    private PluginDescriptor plugin;

    /** The inferbench command this goal runs, e.g. {@code compare}. */
    abstract String command();

    /** What the build's failure says for {@code exit}, after the command's own lines. */
    String failure(ExitCode exit) {
        return "inferbench " + command() + " ended with exit code " + exit.code() + " (" + RunMojo.meaning(exit) + ")";
    }

    @Override
    public void execute() throws MojoFailureException {
        Properties p;
        try {
            PluginOptions.checkParameters(project, plugin);
            p = PluginOptions.of(options, session.getUserProperties());
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException("inferbench " + command() + ": " + e.getMessage() + " (exit code "
                    + ExitCode.BAD_INPUT.code() + ")", e);
        }
        ExitCode exit = InferbenchMain.run(new String[]{command()}, p, System.out, System.err);
        if (exit != ExitCode.OK) {
            ExitCodes.end(p, exit, failure(exit), getLog());
            throw new MojoFailureException(failure(exit));
        }
    }
}
