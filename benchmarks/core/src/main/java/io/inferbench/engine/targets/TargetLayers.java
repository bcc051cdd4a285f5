package io.inferbench.engine.targets;

import io.inferbench.BenchmarkException;
import io.inferbench.api.InferenceTarget;
import io.inferbench.engine.UserCode;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The class-loader layers a user's code runs in, in every JVM that runs it, as Maven's class realms keep a build tool's
 * libraries out of a plugin's way:
 * <pre>
 *   bootstrap and platform (the JDK)
 *     └─ api layer: io.inferbench.api from the harness, nothing else of the harness's
 *          └─ shared layer: the jars both sides of a passes pair have byte for byte (absent otherwise)
 *               └─ the side's own layer: its classes and the rest of its class path
 * </pre>
 * The harness (core, engines, their libraries) is on the JVM's class path, which no layer delegates to except for the
 * API's own package: the user's code loads its own Jackson, protobuf, Commons or inference library, at its versions, beside
 * the harness's, and never sees the harness's. One layer per class path and JVM, so every session of a JVM sees the
 * same classes; a shared layer once per JVM, so a native library in it (an engine's) loads once for both sides.
 *
 * <p><b>Hazard:</b> a library that finds its resources through the thread's context class loader (a tokenizer library's
 * natives, {@link java.util.ServiceLoader}) sees the harness's class path unless the calling thread's context loader is the
 * target's: every call into the user's code goes through {@link #call}.
 */
final class TargetLayers {
    /** The package of the API: the one the user's layers see from the harness, so both name the same types. */
    static final String API_PACKAGE = InferenceTarget.class.getPackageName() + ".";

    /** The layer every user layer has beneath it: the JDK, and the harness's {@code io.inferbench.api}. */
    static final ClassLoader API = new ApiLayer(InferenceTarget.class.getClassLoader());

    private static final Map<List<Path>, ClassLoader> SHARED = new ConcurrentHashMap<>();
    private static final Map<UserCode, ClassLoader> OWN = new ConcurrentHashMap<>();

    private TargetLayers() {
    }

    /** The layer {@code code}'s classes load in: its own entries, over the shared layer of a passes pair, over the API. */
    static ClassLoader loader(UserCode code) {
        UserCode key = new UserCode(code.classpath(), Map.of(), code.shared(), code.borrows());
        ClassLoader harness = InferenceTarget.class.getClassLoader();
        return OWN.computeIfAbsent(key, c -> {
            ClassLoader parent = c.shared().isEmpty() ? API : SHARED.computeIfAbsent(c.shared(),
                    entries -> new Layer("inferbench-shared", urls(entries), API, c.borrows() ? harness : null));
            return new Layer("inferbench-target", urls(c.own()), parent, c.borrows() ? harness : null);
        });
    }

    /**
     * A layer of the user's code: its own entries, after its parent's; with {@code -Dbench.harnessLibraries=borrow} a
     * class or resource none of them has is taken from the harness's loader, and its package remembered
     * ({@link #borrowed}), for each cell to name.
     */
    static final class Layer extends URLClassLoader {
        static {
            ClassLoader.registerAsParallelCapable();
        }

        private final ClassLoader lender;
        private final java.util.Set<String> borrowed = ConcurrentHashMap.newKeySet();

        Layer(String name, URL[] urls, ClassLoader parent, ClassLoader lender) {
            super(name, urls, parent);
            this.lender = lender;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            try {
                return super.findClass(name);
            } catch (ClassNotFoundException missing) {
                if (lender == null) {
                    throw missing;
                }
                Class<?> lent = lender.loadClass(name);
                borrowed.add(lent.getPackageName());
                return lent;
            }
        }

        @Override
        public URL findResource(String name) {
            URL own = super.findResource(name);
            return own != null || lender == null ? own : lender.getResource(name);
        }

        @Override
        public Enumeration<URL> findResources(String name) throws IOException {
            Enumeration<URL> own = super.findResources(name);
            if (lender == null || own.hasMoreElements()) {
                return own;
            }
            return lender.getResources(name);
        }

        /** The packages of the classes this layer took from the harness. */
        java.util.Set<String> borrowed() {
            return java.util.Set.copyOf(borrowed);
        }
    }

    /**
     * Runs {@code work} with {@code loader} as the thread's context class loader, and restores the thread's own after:
     * each call into the user's code (its constructor, open, prepare, run and close). The two writes cost a few
     * nanoseconds inside a timed call.
     */
    static <T> T call(ClassLoader loader, Callable<T> work) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return work.call();
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    private static URL[] urls(List<Path> entries) {
        return entries.stream().map(TargetLayers::url).toArray(URL[]::new);
    }

    private static URL url(Path entry) {
        try {
            return entry.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new BenchmarkException("-Dbench.classpath entry " + entry + " is not a path a class loader can read", e);
        }
    }

    /** The JDK, and from {@code harness} only the classes and resources of {@link #API_PACKAGE}. */
    static final class ApiLayer extends ClassLoader {
        private static final String API_RESOURCES = API_PACKAGE.replace('.', '/');
        private final ClassLoader harness;

        ApiLayer(ClassLoader harness) {
            super("inferbench-api", ClassLoader.getPlatformClassLoader());
            this.harness = harness;
        }

        /** The harness's loader, of which this layer shows only the API. */
        ClassLoader harness() {
            return harness;
        }

        /** The API's packages as the harness's loader defined them: what this layer hands the user's code. */
        java.util.Set<String> harnessApiPackages() {
            java.util.Set<String> names = new java.util.HashSet<>();
            for (Package p : harness.getDefinedPackages()) {
                if ((p.getName() + ".").startsWith(API_PACKAGE)) {
                    names.add(p.getName());
                }
            }
            return names;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith(API_PACKAGE)) {
                return harness.loadClass(name);
            }
            return super.loadClass(name, resolve);
        }

        @Override
        public URL getResource(String name) {
            return name.startsWith(API_RESOURCES) ? harness.getResource(name) : super.getResource(name);
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            return name.startsWith(API_RESOURCES) ? harness.getResources(name)
                    : getParent() == null ? Collections.emptyEnumeration() : getParent().getResources(name);
        }
    }
}
