package io.inferbench.cli;

/**
 * The entry point Maven's {@code exec:java} runs inside Maven's own JVM ({@code check-properties}, {@code launch-sweep},
 * {@code analyze}, {@code compare}). On success it returns, so Maven goes on and reports BUILD SUCCESS; otherwise it
 * ends the JVM with the command's {@link ExitCode}, which becomes {@code mvn}'s own exit code (a failed Maven goal would
 * always be 1, and 1 means a finding).
 */
public final class MavenEntry {
    private MavenEntry() {
    }

    public static void main(String[] args) {
        ExitCode exit = InferbenchMain.run(args, System.getProperties(), System.out, System.err);
        if (exit != ExitCode.OK) {
            System.out.flush();
            System.err.flush();
            System.exit(exit.code());
        }
    }
}
