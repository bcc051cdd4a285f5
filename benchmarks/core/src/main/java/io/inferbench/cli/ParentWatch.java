package io.inferbench.cli;

import java.util.Optional;

/**
 * The sweep JVM's watch on the Maven JVM that started it ({@link MavenLauncher}): Maven stops the sweep with a shutdown
 * hook when it is interrupted, but a {@code kill -9} of Maven runs no hook, and the sweep would measure on as an orphan
 * and move {@code results/latest} when nobody is waiting. One daemon thread looks once a second; when the parent is
 * gone it ends this JVM through {@link System#exit}, so that its own hooks stop the fork JVM it runs, and what was
 * measured stays in {@code run.json}, written after every fork JVM.
 */
final class ParentWatch {
    /** The system property that carries the parent's process id. */
    static final String PARENT_PID_PROPERTY = "inferbench.parentPid";

    private ParentWatch() {
    }

    /** Starts watching the parent named by {@value #PARENT_PID_PROPERTY}, if it is set; does nothing otherwise. */
    static void startFromProperty() {
        String pid = System.getProperty(PARENT_PID_PROPERTY, "").trim();
        if (pid.isEmpty()) {
            return;
        }
        Optional<ProcessHandle> parent = ProcessHandle.of(Long.parseLong(pid));
        Thread watch = new Thread(() -> {
            while (parent.isPresent() && parent.get().isAlive()) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.err.println("[inferbench] the Maven JVM that started this sweep (pid " + pid + ") is gone: the sweep "
                    + "stops, its fork JVM with it; what was measured is in run.json");
            System.exit(ExitCode.INTERNAL_ERROR.code());
        }, "inferbench-parent-watch");
        watch.setDaemon(true);
        watch.start();
    }
}
