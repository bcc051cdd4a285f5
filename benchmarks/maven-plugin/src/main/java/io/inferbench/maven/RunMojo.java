package io.inferbench.maven;

import io.inferbench.BenchmarkException;
import io.inferbench.cli.BuildRecord;
import io.inferbench.cli.ExitCode;
import io.inferbench.cli.MavenLauncher;
import io.inferbench.cli.Setting;
import io.inferbench.cli.PropertyNames;
import io.inferbench.cli.Settings;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * {@code inferbench:run}, bound to {@code verify}: the benchmark run of the project it is declared in, as
 * {@code mvn verify} runs inferbench's own. With {@code bench.target}, it times the project's own class (docs/targets.md)
 * on the project's runtime class path, which it resolves itself; without, it times {@code bench.model} (default: the
 * built-in {@code tiny}). Options are the {@code bench.*} properties of docs/options.md, given in {@code <options>} or
 * with {@code -D}. The run is written to {@code results/<run-id>/} under the folder Maven was started in.
 *
 * <p>The sweep runs in a JVM of its own (JMH's forks need a real class path) on the plugin's own jars; the project's
 * classes and libraries reach only the JVMs that call them, through {@code bench.classpath}. The build fails when the
 * run does, naming inferbench's exit code: 1 a finding (a failed cell, a regression), 2 bad input found before
 * measuring, 3 a crash. {@code -Dbench.skip=true} skips it.
 */
@Mojo(name = "run", defaultPhase = LifecyclePhase.VERIFY, requiresDependencyResolution = ResolutionScope.RUNTIME)
public class RunMojo extends AbstractMojo {
    /** What every engine module's artifactId starts with, as a dependency trail spells it ({@code group:artifact:...}). */
    static final String ENGINE_MODULE = "io.inferbench:inferbench-engine-";

    /** {@code bench.*} options, one element each: {@code <bench.batch>1,2,4</bench.batch>}. {@code -D} wins over these. */
    @Parameter
    private Map<String, String> options;

    /** Skips the run (tests and the rest of the build go on). */
    @Parameter(property = "bench.skip", defaultValue = "false")
    private boolean skip;

    /** Where relative default paths ({@code results}, the model cache) are resolved from. */
    @Parameter(defaultValue = "${session.executionRootDirectory}", required = true)
    private File root;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    private PluginDescriptor plugin;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("inferbench: skipped (bench.skip=true)");
            BuildRecord.noRun(root.toPath(), project.getArtifactId(), ExitCode.OK, "skipped (-Dbench.skip=true): nothing "
                    + "measured");
            return;
        }
        Properties p;
        try {
            PluginOptions.checkParameters(project, plugin);
            p = PluginOptions.of(options, session.getUserProperties());
        } catch (IllegalArgumentException e) {
            BuildRecord.noRun(root.toPath(), project.getArtifactId(), ExitCode.BAD_INPUT, "refused before measuring (exit code "
                    + ExitCode.BAD_INPUT.code() + "): " + e.getMessage());
            throw new MojoFailureException("inferbench: " + e.getMessage() + " (exit code " + ExitCode.BAD_INPUT.code() + ")", e);
        }
        ExitCode exit;
        try {
            PropertyNames.checkKnown(p);
            boolean engines = needsEngines(p);
            if (!engines) {
                getLog().info("inferbench: the target's JVMs get the project's runtime class path and the harness core; "
                        + "no engine module (-Dbench.backend adds one)");
            }
            List<Libraries.Library> harness = harnessLibraries(engines);
            List<String> harnessClasspath = harness.stream().map(Libraries.Library::path).toList();
            if (!p.getProperty(Setting.TARGET.property(), "").isBlank()
                    && p.getProperty(Setting.CLASSPATH.property(), "").isBlank()) {
                Libraries.Resolved resolved = Libraries.resolve(projectClasses(), projectLibraries(), harness,
                        p.getProperty(Setting.LIBRARY_CONFLICT.property(), Setting.LIBRARY_CONFLICT.defaultValue()).trim());
                resolved.notes().forEach(note -> getLog().warn("inferbench: " + note));
                resolved.apart().forEach(note -> getLog().info("inferbench: " + note));
                p.setProperty(Setting.CLASSPATH.property(), String.join(File.pathSeparator, resolved.target()));
                if (Setting.HARNESS_LIBRARIES.userValue(p).isEmpty()) {
                    // The project's whole class path is given: its code sees the JDK, the API and that, nothing else.
                    p.setProperty(Setting.HARNESS_LIBRARIES.property(), "hidden");
                }
                harnessClasspath = resolved.harness();
                baselineWithLibraries(p, resolved.target());
            }
            exit = MavenLauncher.launch(root.toPath(), harnessClasspath, p, System.err, project.getArtifactId());
        } catch (IllegalArgumentException | BenchmarkException e) {
            BuildRecord.noRun(root.toPath(), project.getArtifactId(), ExitCode.BAD_INPUT, "refused before measuring (exit code "
                    + ExitCode.BAD_INPUT.code() + "): " + e.getMessage());
            ExitCodes.end(p, ExitCode.BAD_INPUT, "inferbench: " + e.getMessage(), getLog());
            throw new MojoFailureException("inferbench: " + e.getMessage() + " (exit code " + ExitCode.BAD_INPUT.code() + ")", e);
        } catch (IOException e) {
            throw new MojoExecutionException("inferbench: could not start the sweep JVM: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("inferbench: interrupted while the sweep ran", e);
        }
        if (exit != ExitCode.OK) {
            String message = "inferbench ended with exit code " + exit.code() + " (" + meaning(exit)
                    + "); the run's folder under results/ holds everything it measured";
            ExitCodes.end(p, exit, message, getLog());
            throw new MojoFailureException(message);
        }
    }

    /**
     * An A/B run's A given as one classes folder ({@code -Dbench.ab.baseline=base/target/classes}, the base branch's
     * build): A's class path is that folder and the project's libraries, as B's is its classes and the same libraries.
     * A baseline of several entries is A's whole class path, used as given (for a pull request that changes a library).
     */
    private void baselineWithLibraries(Properties p, List<String> target) {
        String baseline = p.getProperty(Setting.AB_BASELINE_PROPERTY, "").trim();
        if (baseline.isEmpty() || baseline.contains(File.pathSeparator) || !new File(baseline).isDirectory()) {
            return;
        }
        List<String> a = new java.util.ArrayList<>(List.of(new File(baseline).getAbsolutePath()));
        target.stream().filter(entry -> !projectClasses().contains(entry)).forEach(a::add);
        p.setProperty(Setting.AB_BASELINE_PROPERTY, String.join(File.pathSeparator, a));
        getLog().info("inferbench: A is " + baseline + " with this project's " + (a.size() - 1) + " libraries (give A's "
                + "whole class path, entries separated by " + File.pathSeparator + ", to use its own)");
    }

    /** The project's own classes folder: the first entry of its runtime class path. */
    private List<String> projectClasses() {
        return List.of(project.getBuild().getOutputDirectory());
    }

    /** The project's runtime libraries (compile and runtime scope), as Maven resolved them. */
    private List<Libraries.Library> projectLibraries() {
        return project.getArtifacts().stream().filter(a -> a.getFile() != null && a.getArtifactHandler().isAddedToClasspath())
                .filter(a -> !Artifact.SCOPE_PROVIDED.equals(a.getScope()) && !Artifact.SCOPE_TEST.equals(a.getScope()))
                .map(RunMojo::library).toList();
    }

    private static Libraries.Library library(Artifact a) {
        String key = a.getGroupId() + ":" + a.getArtifactId() + (a.hasClassifier() ? ":" + a.getClassifier() : "");
        return new Libraries.Library(key, a.getBaseVersion(), a.getFile().getAbsolutePath());
    }

    /**
     * Whether the run measures an engine as well as (or instead of) the project's target: a run without
     * {@code bench.target}, or one that names {@code bench.backend}. A target run alone leaves every engine module and
     * its libraries off the class paths, so that the project's own ONNX Runtime or DJL is the one its code loads.
     */
    static boolean needsEngines(Properties p) {
        return p.getProperty(Setting.TARGET.property(), "").isBlank() || !p.getProperty(Setting.BACKEND.property(), "").isBlank();
    }

    /**
     * The plugin's own jars: the harness core and its libraries, and with {@code engines} the engines' modules and
     * theirs. An artifact is an engine's when Maven reached it through an engine module ({@link #ENGINE_MODULE}).
     */
    private List<Libraries.Library> harnessLibraries(boolean engines) {
        return plugin.getArtifacts().stream().filter(a -> a.getFile() != null)
                .filter(a -> engines || a.getDependencyTrail() == null
                        || a.getDependencyTrail().stream().noneMatch(step -> step.contains(ENGINE_MODULE)))
                .map(RunMojo::library).toList();
    }

    static String meaning(ExitCode exit) {
        return switch (exit) {
            case OK -> "every cell measured";
            case FINDING -> "a finding: a cell failed, or a regression against the baseline";
            case BAD_INPUT -> "bad input, found before measuring";
            case INTERNAL_ERROR -> "a crash of inferbench or of the sweep JVM, or a stage that did not finish";
            case UNDECIDED -> "undecided: a comparison could neither show a regression nor rule one out (ab.md or compare.md "
                    + "says what would decide it)";
        };
    }
}
