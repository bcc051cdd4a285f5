package io.inferbench.engine.targets;

import io.inferbench.api.InferenceTarget;
import io.inferbench.engine.UserCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 66: a user's code runs in layers that the harness's libraries stay out of. The jars here are compiled by the
 * test: a "library" whose class has the name of one of the harness's own (HdrHistogram's {@code Histogram}) with a
 * method the harness's version does not have, so which copy loaded is read off the class itself.
 */
class TargetLayersTest {
    @TempDir
    Path dir;

    /** A jar at {@code repository/group/artifact/version} holding {@code source}'s class, compiled here. */
    private Path jar(String group, String artifact, String version, String className, String source) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src-" + artifact + version)).resolve(className.substring(
                className.lastIndexOf('.') + 1) + ".java");
        Files.writeString(src, source);
        Path classes = Files.createDirectories(dir.resolve("classes-" + artifact + version));
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
                "-cp", System.getProperty("java.class.path"), src.toString()));
        Path jar = Files.createDirectories(dir.resolve("repository/" + group.replace('.', '/') + "/" + artifact + "/" + version))
                .resolve(artifact + "-" + version + ".jar");
        String entry = className.replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry(entry));
            out.write(Files.readAllBytes(classes.resolve(entry)));
            out.closeEntry();
        }
        return jar;
    }

    private Path ownHistogram() throws IOException {
        return jar("org.hdrhistogram", "HdrHistogram", "0.0.1", "org.HdrHistogram.Histogram",
                "package org.HdrHistogram; public class Histogram { public static String whose() { return \"the user's\"; } }");
    }

    @Test
    void theUsersCodeSeesItsOwnLibraryAndNoneOfTheHarnesss() throws Exception {
        Path histogram = ownHistogram();
        ClassLoader layer = TargetLayers.loader(new UserCode(List.of(histogram), Map.of()));
        Class<?> theirs = Class.forName("org.HdrHistogram.Histogram", true, layer);
        assertNotSame(org.HdrHistogram.Histogram.class, theirs, "the harness has HdrHistogram too: its copy must not answer");
        assertEquals("the user's", theirs.getMethod("whose").invoke(null));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("com.fasterxml.jackson.databind.ObjectMapper", false, layer),
                "the harness's Jackson is not the user's to see");
        assertSame(InferenceTarget.class, Class.forName(InferenceTarget.class.getName(), false, layer),
                "the API is the one type both sides name");
        assertSame(String.class, Class.forName("java.lang.String", false, layer));
        assertSame(java.sql.Connection.class, Class.forName("java.sql.Connection", false, layer), "the platform's modules too");
        assertTrue(LoadedLibraries.describe(layer, new UserCode(List.of(histogram), Map.of()))
                .startsWith("loaded from your class path: org.hdrhistogram:HdrHistogram:0.0.1"));
    }

    @Test
    void theJarsBothSidesShareLoadOnceAndEachSidesOwnClassesApart() throws Exception {
        Path shared = jar("com.acme", "shared", "1.0", "com.acme.Shared",
                "package com.acme; public class Shared { public static int calls; }");
        Path a = jar("com.example", "service", "1", "com.example.Service",
                "package com.example; public class Service { public static String side() { return \"A\"; } }");
        Path b = jar("com.example", "service", "2", "com.example.Service",
                "package com.example; public class Service { public static String side() { return \"B\"; } }");
        ClassLoader layerA = TargetLayers.loader(new UserCode(List.of(a, shared), Map.of(), List.of(shared)));
        ClassLoader layerB = TargetLayers.loader(new UserCode(List.of(b, shared), Map.of(), List.of(shared)));
        assertSame(Class.forName("com.acme.Shared", true, layerA), Class.forName("com.acme.Shared", true, layerB),
                "a jar both sides have loads once, beneath both");
        assertEquals("A", Class.forName("com.example.Service", true, layerA).getMethod("side").invoke(null));
        assertEquals("B", Class.forName("com.example.Service", true, layerB).getMethod("side").invoke(null),
                "the same class name in each side's own layer");
        assertSame(layerA, TargetLayers.loader(new UserCode(List.of(a, shared), Map.of("x", "1"), List.of(shared))),
                "one layer per class path in a JVM, whatever the settings");
        String said = LoadedLibraries.describe(layerB, new UserCode(List.of(b, shared), Map.of(), List.of(shared)));
        assertEquals("loaded from your class path: com.example:service:2; loaded once for both sides (the jars they share): "
                + "com.acme:shared:1.0", said);
    }

    @Test
    void everyCallRunsWithTheLayerAsTheContextClassLoader() throws Exception {
        ClassLoader layer = TargetLayers.loader(new UserCode(List.of(ownHistogram()), Map.of()));
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        assertSame(layer, TargetLayers.call(layer, () -> Thread.currentThread().getContextClassLoader()));
        assertSame(before, Thread.currentThread().getContextClassLoader(), "the thread's own is back after the call");
        assertThrows(IllegalStateException.class, () -> TargetLayers.call(layer, () -> {
            throw new IllegalStateException("the user's failure");
        }));
        assertSame(before, Thread.currentThread().getContextClassLoader(), "and after a call that threw");
    }

    /**
     * Code compiled against this repository's class path and given only its own classes (docs/targets.md) borrows what
     * it lacks from the harness, classes and resources, with -Dbench.harnessLibraries=borrow; hidden, it sees none.
     */
    @Test
    void codeThatLacksALibraryBorrowsItOnlyWhenAllowed() throws Exception {
        Path user = jar("com.example", "user", "1", "com.example.User",
                "package com.example; public class User { public static long count() { "
                        + "org.HdrHistogram.Histogram h = new org.HdrHistogram.Histogram(3); h.recordValue(5); return h.getTotalCount(); } }");
        ClassLoader borrowing = TargetLayers.loader(new UserCode(List.of(user), Map.of(), List.of(), true));
        Class<?> type = Class.forName("com.example.User", true, borrowing);
        assertEquals(1L, type.getMethod("count").invoke(null));
        assertTrue(((TargetLayers.Layer) borrowing).borrowed().contains("org.HdrHistogram"),
                "what it borrowed is remembered, for each cell to name");
        assertSame(org.HdrHistogram.Histogram.class, Class.forName("org.HdrHistogram.Histogram", false, borrowing));

        Path hiddenCopy = Files.copy(user, dir.resolve("user-hidden.jar"));
        ClassLoader hidden = TargetLayers.loader(new UserCode(List.of(hiddenCopy), Map.of(), List.of(), false));
        Class<?> alone = Class.forName("com.example.User", true, hidden);
        java.lang.reflect.InvocationTargetException e = assertThrows(java.lang.reflect.InvocationTargetException.class,
                () -> alone.getMethod("count").invoke(null));
        assertTrue(e.getCause() instanceof NoClassDefFoundError, "hidden, the harness's HdrHistogram is not there: " + e.getCause());
    }
}
