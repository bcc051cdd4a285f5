package io.inferbench.engine.targets;

import io.inferbench.api.InferenceTarget;
import io.inferbench.engine.Jars;
import io.inferbench.engine.UserCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LoadedLibrariesTest {
    @TempDir
    Path dir;

    /** A jar in a Maven repository's layout holding {@code com.acme.Lib}, compiled here. */
    private Path acmeJar() throws IOException {
        Path src = Files.createDirectories(dir.resolve("src/com/acme")).resolve("Lib.java");
        Files.writeString(src, "package com.acme; public class Lib { public static int answer() { return 42; } }");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), src.toString()));
        Path jar = Files.createDirectories(dir.resolve("repository/com/acme/lib/1.2.3")).resolve("lib-1.2.3.jar");
        write(jar, "com/acme/Lib.class", Files.readAllBytes(classes.resolve("com/acme/Lib.class")));
        return jar;
    }

    private static void write(Path jar, String entry, byte[] bytes) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry(entry));
            out.write(bytes);
            out.closeEntry();
        }
    }

    @Test
    void aJarIsLoadedOnlyOnceTheTargetsCodeUsedIt() throws Exception {
        Path jar = acmeJar();
        try (URLClassLoader loader = new URLClassLoader(new URL[]{jar.toUri().toURL()}, getClass().getClassLoader())) {
            assertEquals("loaded from your class path: no jar (your classes only)", LoadedLibraries.describe(loader, new UserCode(List.of(jar), Map.of())),
                    "a jar on the class path whose classes never loaded did not run");
            assertEquals(42, loader.loadClass("com.acme.Lib").getMethod("answer").invoke(null));
            assertEquals("loaded from your class path: com.acme:lib:1.2.3", LoadedLibraries.describe(loader, new UserCode(List.of(jar), Map.of())));
        }
    }

    @Test
    void aLibraryTheHarnessAlreadyLoadedIsNamedAsShadowed() throws Exception {
        // The project's own copy of a package the harness's loader defined: the parent answers first, so it never loads.
        Path jar = Files.createDirectories(dir.resolve("repository/io/inferbench/inferbench-api/0.0.9"))
                .resolve("inferbench-api-0.0.9.jar");
        write(jar, InferenceTarget.class.getName().replace('.', '/') + ".class", new byte[]{0});
        try (URLClassLoader loader = new URLClassLoader(new URL[]{jar.toUri().toURL()}, getClass().getClassLoader())) {
            loader.loadClass(InferenceTarget.class.getName());
            assertEquals("loaded from your class path: no jar (your classes only); shadowed by the harness's copy, never "
                    + "loaded: io.inferbench:inferbench-api:0.0.9", LoadedLibraries.describe(loader, new UserCode(List.of(jar), Map.of())));
        }
    }

    @Test
    void aJarOutsideARepositoryIsNamedByItsManifest() throws IOException {
        Path jar = dir.resolve("vendor.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest())) {
            out.putNextEntry(new JarEntry("x/Y.class"));
            out.closeEntry();
        }
        assertEquals("vendor-sdk 7.1", Jars.library(jar));
        Path plain = dir.resolve("plain.jar");
        write(plain, "x/Y.class", new byte[0]);
        assertEquals("plain.jar", Jars.library(plain));
        assertEquals(null, Jars.library(dir), "a folder is the user's classes, not a library");
    }

    private static java.util.jar.Manifest manifest() {
        java.util.jar.Manifest manifest = new java.util.jar.Manifest();
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.IMPLEMENTATION_TITLE, "vendor-sdk");
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.IMPLEMENTATION_VERSION, "7.1");
        return manifest;
    }
}
