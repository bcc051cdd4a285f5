package io.inferbench.engine.targets;

import io.inferbench.engine.Jars;
import io.inferbench.engine.UserCode;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * What each class-loader layer of a fork JVM loaded ({@link TargetLayers}), read after the target opened: the jars of
 * the target's class path whose code it loaded (a jar counts when its layer defined a class of one of its packages),
 * those loaded once in the layer shared by both sides of a {@code passes} pair, and the harness's own copies of the
 * same libraries, loaded apart in its layer. A jar of the target's whose packages a layer beneath defined instead was
 * shadowed (only the API's package is shared that way). Each jar is named by its Maven coordinates when its path is in
 * a repository's layout, else by its manifest's {@code Implementation-Title} and {@code Implementation-Version}, else
 * by its file name.
 */
final class LoadedLibraries {
    private LoadedLibraries() {
    }

    /** What {@code loader}'s layers loaded from {@code code}'s class path, and the harness's copies of those libraries. */
    static String describe(ClassLoader loader, UserCode code) {
        ClassLoader parent = loader.getParent();
        ClassLoader shared = parent != null && "inferbench-shared".equals(parent.getName()) ? parent : null;
        Set<String> own = names(loader);
        Set<String> sharedNames = shared == null ? Set.of() : names(shared);
        Set<String> beneath = new HashSet<>();
        for (ClassLoader p = shared == null ? parent : shared.getParent(); p != null; p = p.getParent()) {
            beneath.addAll(p instanceof TargetLayers.ApiLayer api ? api.harnessApiPackages() : names(p));
        }
        Set<String> loaded = new TreeSet<>();
        Set<String> loadedShared = new TreeSet<>();
        Set<String> shadowed = new TreeSet<>();
        Set<String> keys = new HashSet<>();
        for (Path entry : code.classpath()) {
            if (!Files.isRegularFile(entry) || !entry.toString().endsWith(".jar")) {
                continue;
            }
            Set<String> packages = packages(entry);
            boolean inShared = code.shared().contains(entry);
            if (packages.stream().anyMatch(inShared ? sharedNames::contains : own::contains)) {
                (inShared ? loadedShared : loaded).add(Jars.library(entry));
                Jars.coordinates(entry.toAbsolutePath().toString()).ifPresent(c -> keys.add(key(c)));
            } else if (packages.stream().anyMatch(beneath::contains)) {
                shadowed.add(Jars.library(entry));
            }
        }
        Set<String> harness = harnessCopies(keys, TargetLayers.API instanceof TargetLayers.ApiLayer api ? api.harness() : null);
        Set<String> lentPackages = new HashSet<>();
        for (ClassLoader layer : java.util.Arrays.asList(loader, shared)) {
            if (layer instanceof TargetLayers.Layer targetLayer) {
                lentPackages.addAll(targetLayer.borrowed());
            }
        }
        Set<String> borrowed = new TreeSet<>();
        if (!lentPackages.isEmpty()) {
            for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
                if (entry.endsWith(".jar") && packages(Path.of(entry)).stream().anyMatch(lentPackages::contains)) {
                    borrowed.add(Jars.library(Path.of(entry)));
                }
            }
        }
        return "loaded from your class path: " + (loaded.isEmpty() ? "no jar (your classes only)" : String.join(", ", loaded))
                + (loadedShared.isEmpty() ? "" : "; loaded once for both sides (the jars they share): "
                + String.join(", ", loadedShared))
                + (harness.isEmpty() ? "" : "; the harness's own copies, loaded apart in its layer: " + String.join(", ", harness))
                + (borrowed.isEmpty() ? "" : "; borrowed from the harness (your class path lacks them, "
                + "-Dbench.harnessLibraries=borrow): " + String.join(", ", borrowed))
                + (shadowed.isEmpty() ? "" : "; shadowed by the harness's copy, never loaded: " + String.join(", ", shadowed));
    }

    /** The jars on the JVM's class path (the harness's) of the libraries {@code keys} names that {@code harness} loaded from. */
    private static Set<String> harnessCopies(Set<String> keys, ClassLoader harness) {
        Set<String> copies = new TreeSet<>();
        if (keys.isEmpty() || harness == null) {
            return copies;
        }
        Set<String> defined = names(harness);
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            Optional<String> coordinates = Jars.coordinates(entry);
            if (coordinates.isPresent() && keys.contains(key(coordinates.get()))
                    && packages(Path.of(entry)).stream().anyMatch(defined::contains)) {
                copies.add(coordinates.get());
            }
        }
        return copies;
    }

    /** {@code group:artifact} of {@code group:artifact:version}. */
    private static String key(String coordinates) {
        return coordinates.substring(0, coordinates.lastIndexOf(':'));
    }

    private static Set<String> names(ClassLoader loader) {
        Set<String> names = new HashSet<>();
        for (Package p : loader.getDefinedPackages()) {
            names.add(p.getName());
        }
        return names;
    }

    /** The packages of a jar's classes; none when the jar cannot be read (it is then neither loaded nor shadowed). */
    private static Set<String> packages(Path jar) {
        Set<String> packages = new HashSet<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
                String name = entries.nextElement().getName();
                if (name.endsWith(".class") && name.indexOf('/') > 0 && !name.startsWith("META-INF/")) {
                    packages.add(name.substring(0, name.lastIndexOf('/')).replace('/', '.'));
                }
            }
        } catch (IOException e) {
            return Set.of();
        }
        return packages;
    }
}
