package io.inferbench.engine.targets;

/** Where in the user's code something failed: the first stack frame of a class their class path loaded. */
final class Frames {
    private Frames() {
    }

    /**
     * {@code what threw ExceptionType: message (at the.Frame(File.java:12))}, the frame the first of the cause chain's
     * frames whose class comes from the target's class loader; the first frame outside the JDK and inferbench when none
     * does (the target's classes on inferbench's own class path).
     */
    static String describe(String what, Throwable error, ClassLoader loader) {
        StackTraceElement frame = userFrame(error, loader);
        return what + " threw " + error.getClass().getName() + ": " + error.getMessage()
                + (frame == null ? "" : " (at " + frame + ")");
    }

    static StackTraceElement userFrame(Throwable error, ClassLoader loader) {
        StackTraceElement fallback = null;
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            for (StackTraceElement frame : t.getStackTrace()) {
                if (loadedBy(frame.getClassName(), loader)) {
                    return frame;
                }
                if (fallback == null && !platform(frame.getClassName())) {
                    fallback = frame;
                }
            }
        }
        return fallback;
    }

    private static boolean loadedBy(String className, ClassLoader loader) {
        try {
            return Class.forName(className, false, loader).getClassLoader() == loader;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static boolean platform(String className) {
        return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.")
                || className.startsWith("sun.") || className.startsWith("io.inferbench.");
    }
}
