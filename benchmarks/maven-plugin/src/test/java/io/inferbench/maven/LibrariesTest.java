package io.inferbench.maven;

import io.inferbench.maven.Libraries.Library;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 66: the project's libraries run at its versions in its own layer; only the API and native code must agree. */
class LibrariesTest {
    private static final Library THEIR_JACKSON = new Library("com.fasterxml.jackson.core:jackson-databind", "2.22.3", "/h/jackson-2.22.3.jar", false);
    private static final Library MY_JACKSON = new Library("com.fasterxml.jackson.core:jackson-databind", "2.21.3", "/u/jackson-2.21.3.jar", false);
    private static final Library HDR = new Library("org.hdrhistogram:HdrHistogram", "2.2.2", "/h/hdr.jar", false);
    private static final Library MY_HDR = new Library("org.hdrhistogram:HdrHistogram", "2.2.2", "/u/hdr.jar", false);
    private static final Library THEIR_ORT = new Library("com.microsoft.onnxruntime:onnxruntime", "1.23.2", "/h/ort-1.23.2.jar", true);
    private static final Library MY_ORT = new Library("com.microsoft.onnxruntime:onnxruntime", "1.20.0", "/u/ort-1.20.0.jar", true);
    private static final List<Library> HARNESS = List.of(THEIR_JACKSON, HDR);
    private static final List<Library> HARNESS_WITH_ENGINES = List.of(THEIR_JACKSON, HDR, THEIR_ORT);

    @Test
    void everyLibraryOfTheProjectStaysOnItsClassPath() {
        Libraries.Resolved resolved = Libraries.resolve(List.of("/u/classes"), List.of(MY_HDR, MY_ORT), HARNESS, "refuse");
        assertEquals(List.of("/u/classes", "/u/hdr.jar", "/u/ort-1.20.0.jar"), resolved.target(),
                "the same version too: the project's layer loads its own copy, and it is code that ran");
        assertEquals(List.of("/h/jackson-2.22.3.jar", "/h/hdr.jar"), resolved.harness());
        assertTrue(resolved.notes().isEmpty() && resolved.apart().isEmpty(), resolved.notes().toString());
    }

    @Test
    void anotherVersionOfAPureJavaLibraryRunsBesideTheHarnesssAndIsNamed() {
        Libraries.Resolved resolved = Libraries.resolve(List.of("/u/classes"), List.of(MY_JACKSON), HARNESS, "refuse");
        assertEquals(List.of("/u/classes", "/u/jackson-2.21.3.jar"), resolved.target());
        assertEquals(List.of("/h/jackson-2.22.3.jar", "/h/hdr.jar"), resolved.harness(), "the harness keeps its own");
        assertEquals(List.of("your code runs on its own com.fasterxml.jackson.core:jackson-databind 2.21.3 (the harness's "
                + "2.22.3): each loads in its own layer"), resolved.apart());
        assertTrue(resolved.notes().isEmpty(), "nothing to warn of");
    }

    @Test
    void nativeCodeAtAnotherVersionBesideTheEnginesIsRefusedNamingBoth() {
        String message = assertThrows(IllegalArgumentException.class,
                () -> Libraries.resolve(List.of("/u/classes"), List.of(MY_ORT), HARNESS_WITH_ENGINES, "refuse")).getMessage();
        assertTrue(message.contains("com.microsoft.onnxruntime:onnxruntime: your project 1.20.0 (/u/ort-1.20.0.jar), "
                + "the harness 1.23.2 (/h/ort-1.23.2.jar)"), message);
        assertTrue(message.contains("drop -Dbench.backend") && message.contains("-Dbench.libraryConflict=harness")
                && message.contains("-Dbench.libraryConflict=user"), message);
    }

    @Test
    void theHarnessWinsWhenToldAndSaysSo() {
        Libraries.Resolved resolved = Libraries.resolve(List.of("/u/classes"), List.of(MY_ORT), HARNESS_WITH_ENGINES, "harness");
        assertEquals(List.of("/u/classes", "/h/ort-1.23.2.jar"), resolved.target(), "the harness's jar in the project's layer");
        assertTrue(resolved.notes().get(0).startsWith("your code runs on the harness's version"), resolved.notes().toString());
    }

    @Test
    void theProjectWinsWhenToldTheHarnessRunsOnItsJar() {
        Libraries.Resolved resolved = Libraries.resolve(List.of("/u/classes"), List.of(MY_ORT), HARNESS_WITH_ENGINES, "user");
        assertEquals(List.of("/h/jackson-2.22.3.jar", "/h/hdr.jar", "/u/ort-1.20.0.jar"), resolved.harness());
        assertEquals(List.of("/u/classes", "/u/ort-1.20.0.jar"), resolved.target());
    }

    @Test
    void theApiIsSharedAndMustAgree() {
        Library theirs = new Library(Libraries.API, "0.1.0-SNAPSHOT", "/h/api.jar", false);
        Library mine = new Library(Libraries.API, "0.0.9", "/u/api.jar", false);
        assertEquals(List.of("/u/classes"), Libraries.resolve(List.of("/u/classes"),
                List.of(new Library(Libraries.API, "0.1.0-SNAPSHOT", "/u/api.jar", false)), List.of(theirs), "refuse").target(),
                "the project's copy of the API never loads: the layers hand it the harness's");
        String message = assertThrows(IllegalArgumentException.class,
                () -> Libraries.resolve(List.of("/u/classes"), List.of(mine), List.of(theirs), "user")).getMessage();
        assertTrue(message.contains("0.0.9") && message.contains("0.1.0-SNAPSHOT"), message);
    }

    @Test
    void aJarWithANativeLibraryIsToldApart(@TempDir Path dir) throws IOException {
        Path natives = dir.resolve("natives.jar");
        Path plain = dir.resolve("plain.jar");
        jar(natives, "ai/onnxruntime/native/linux-x64/libonnxruntime.so");
        jar(plain, "com/acme/Lib.class");
        assertTrue(Libraries.holdsNativeCode(natives.toString()));
        assertFalse(Libraries.holdsNativeCode(plain.toString()));
        assertFalse(Libraries.holdsNativeCode(dir.toString()), "a folder of classes");
    }

    private static void jar(Path jar, String entry) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry(entry));
            out.closeEntry();
        }
    }

    @Test
    void anUnknownChoiceIsRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> Libraries.resolve(List.of(), List.of(), HARNESS, "mine")).getMessage().contains("expected refuse, harness or user"));
    }
}
