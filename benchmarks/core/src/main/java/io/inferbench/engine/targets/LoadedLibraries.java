package io.inferbench.engine.targets;

import io.inferbench.engine.Jars;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Which jars of a target's class path its code actually loaded, read in the fork JVM after the target opened: a jar
 * counts as loaded when the target's class loader defined a class of one of its packages. A jar whose packages were
 * defined by a parent loader instead was shadowed: the harness's copy of that library ran, not the project's (the
 * Maven plugin refuses that case before measuring; a hand-written {@code -Dbench.classpath} can still meet it). Each
 * jar is named by its Maven coordinates when its path is in a repository's layout, else by its manifest's
 * {@code Implementation-Title} and {@code Implementation-Version}, else by its file name.
 */
final class LoadedLibraries {
    private LoadedLibraries() {
    }

    /** What {@code loader}'s code loaded from the jars of {@code classpath}, and which of them a parent shadowed. */
    static String describe(ClassLoader loader, List<Path> classpath) {
        Set<String> own = names(loader);
        Set<String> parents = new HashSet<>();
        for (ClassLoader parent = loader.getParent(); parent != null; parent = parent.getParent()) {
            parents.addAll(names(parent));
        }
        Set<String> loaded = new TreeSet<>();
        Set<String> shadowed = new TreeSet<>();
        for (Path entry : classpath) {
            if (!Files.isRegularFile(entry) || !entry.toString().endsWith(".jar")) {
                continue;
            }
            Set<String> packages = packages(entry);
            if (packages.stream().anyMatch(own::contains)) {
                loaded.add(Jars.library(entry));
            } else if (packages.stream().anyMatch(parents::contains)) {
                shadowed.add(Jars.library(entry));
            }
        }
        return "loaded from your class path: " + (loaded.isEmpty() ? "no jar (your classes only)" : String.join(", ", loaded))
                + (shadowed.isEmpty() ? "" : "; shadowed by the harness's copy, never loaded: " + String.join(", ", shadowed));
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
