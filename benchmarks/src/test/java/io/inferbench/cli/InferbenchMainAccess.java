package io.inferbench.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/** Runs the command line in-process for tests in other packages, returning its exit code. */
public final class InferbenchMainAccess {
    private InferbenchMainAccess() {
    }

    public static int run(String... args) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(sink, true, StandardCharsets.UTF_8);
        return InferbenchMain.run(args, new Properties(), out, out).code();
    }
}
