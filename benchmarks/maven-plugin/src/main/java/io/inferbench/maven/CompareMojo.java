package io.inferbench.maven;

import org.apache.maven.plugins.annotations.Mojo;

/**
 * {@code inferbench:compare}: two runs' {@code run.json}, baseline against candidate, as
 * {@code exec:java@compare} does in inferbench's own build ({@code -Dbaseline=A/run.json -Dcandidate=B/run.json
 * [-Dout=folder]}, docs/statistics-and-compare.md). Needs no project: {@code mvn io.inferbench:inferbench-maven-plugin:compare}
 * works in any folder. The build fails with the command's exit code in its message: 1 a regression, 2 runs that cannot
 * be compared.
 */
@Mojo(name = "compare", requiresProject = false)
public class CompareMojo extends CommandMojo {
    @Override
    String command() {
        return "compare";
    }
}
