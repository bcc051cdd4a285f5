package io.inferbench.maven;

import io.inferbench.maven.Libraries.Library;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LibrariesTest {
    private static final Library THEIR_JACKSON = new Library("com.fasterxml.jackson.core:jackson-databind", "2.22.3", "/h/jackson-2.22.3.jar");
    private static final Library MY_JACKSON = new Library("com.fasterxml.jackson.core:jackson-databind", "2.15.2", "/u/jackson-2.15.2.jar");
    private static final Library HDR = new Library("org.hdrhistogram:HdrHistogram", "2.2.2", "/h/hdr.jar");
    private static final Library MY_HDR = new Library("org.hdrhistogram:HdrHistogram", "2.2.2", "/u/hdr.jar");
    private static final Library MY_ORT = new Library("com.microsoft.onnxruntime:onnxruntime", "1.20.0", "/u/ort-1.20.0.jar");
    private static final List<Library> HARNESS = List.of(THEIR_JACKSON, HDR);

    @Test
    void aLibraryOnlyTheProjectHasStaysOnItsClassPath() {
        Libraries.Resolved resolved = Libraries.resolve(List.of("/u/classes"), List.of(MY_ORT), HARNESS, "refuse");
        assertEquals(List.of("/u/classes", "/u/ort-1.20.0.jar"), resolved.target());
        assertEquals(List.of("/h/jackson-2.22.3.jar", "/h/hdr.jar"), resolved.harness());
    }

    @Test
    void theSameVersionIsLeftToTheHarnessAndNotHashedAsTheProjectsCode() {
        Libraries.Resolved resolved = Libraries.resolve(List.of("/u/classes"), List.of(MY_HDR, MY_ORT), HARNESS, "refuse");
        assertEquals(List.of("/u/classes", "/u/ort-1.20.0.jar"), resolved.target(), "the project's copy would never load");
    }

    @Test
    void anotherVersionIsRefusedNamingBothVersionsAndBothJars() {
        String message = assertThrows(IllegalArgumentException.class,
                () -> Libraries.resolve(List.of("/u/classes"), List.of(MY_JACKSON), HARNESS, "refuse")).getMessage();
        assertTrue(message.contains("com.fasterxml.jackson.core:jackson-databind: your project 2.15.2 (/u/jackson-2.15.2.jar), "
                + "the harness 2.22.3 (/h/jackson-2.22.3.jar)"), message);
        assertTrue(message.contains("-Dbench.libraryConflict=harness") && message.contains("-Dbench.libraryConflict=user"), message);
    }

    @Test
    void theHarnessWinsWhenToldAndSaysSo() {
        Libraries.Resolved resolved = Libraries.resolve(List.of("/u/classes"), List.of(MY_JACKSON), HARNESS, "harness");
        assertEquals(List.of("/u/classes"), resolved.target(), "the shadowed copy is not on the target's class path");
        assertEquals(List.of("/h/jackson-2.22.3.jar", "/h/hdr.jar"), resolved.harness());
        assertTrue(resolved.notes().get(0).startsWith("your code runs on the harness's version"), resolved.notes().toString());
    }

    @Test
    void theProjectWinsWhenToldTheHarnessRunsOnItsJar() {
        Libraries.Resolved resolved = Libraries.resolve(List.of("/u/classes"), List.of(MY_JACKSON), HARNESS, "user");
        assertEquals(List.of("/u/jackson-2.15.2.jar", "/h/hdr.jar"), resolved.harness());
        assertEquals(List.of("/u/classes"), resolved.target());
    }

    @Test
    void anUnknownChoiceIsRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> Libraries.resolve(List.of(), List.of(), HARNESS, "mine")).getMessage().contains("expected refuse, harness or user"));
    }
}
