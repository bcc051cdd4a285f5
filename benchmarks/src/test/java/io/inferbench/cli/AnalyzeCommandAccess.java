package io.inferbench.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/** Test access to {@link AnalyzeCommand}: what analyzing a run file finds different from its stored analysis. */
public final class AnalyzeCommandAccess {
    private AnalyzeCommandAccess() {
    }

    public static List<String> differences(Path runFile, Path outDir) {
        return AnalyzeCommand.analyze(runFile, outDir, new Properties(), new PrintStream(java.io.OutputStream.nullOutputStream()))
                .differences();
    }
}
