package io.inferbench.probe;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcFilesTest {
    /** Fields as a regex split on runs of whitespace gives them, leading and trailing blanks dropped. */
    @Test
    void fieldsSplitOnRunsOfBlanksAsTheRegexDid() {
        for (String text : new String[] {"cpu  4705 356 584 3699 23 23 0 0 0 0\n", "  a\tb \n c  ", "one", "", "   "}) {
            String trimmed = text.trim();
            List<String> expected = trimmed.isEmpty() ? List.of() : List.of(trimmed.split("\\s+"));
            assertEquals(expected, ProcFiles.fields(text), "fields of '" + text + "'");
        }
    }

    @Test
    void readsWritesAndListsOrSaysItCannot(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("status");
        Files.writeString(file, "Name:\tjava\nVmRSS:\t  1024 kB\n");
        assertEquals("Name:\tjava\nVmRSS:\t  1024 kB\n", ProcFiles.read(file.toString()));
        assertTrue(ProcFiles.write(file.toString(), "5"));
        assertEquals("5", Files.readString(file));
        Files.createDirectories(dir.resolve("101"));
        String[] names = ProcFiles.list(dir.toString());
        java.util.Arrays.sort(names);
        assertArrayEquals(new String[] {"101", "status"}, names);
        assertNull(ProcFiles.read(dir.resolve("absent").toString()));
        assertNull(ProcFiles.list(dir.resolve("absent").toString()));
        assertEquals(false, ProcFiles.write(dir.resolve("absent/x").toString(), "5"));
    }

    /** A file longer than the limit is cut at it, not read past it. */
    @Test
    void aLongFileIsCutAtTheLimit(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("long");
        Files.writeString(file, "x".repeat(ProcFiles.MAX_BYTES + 100));
        assertEquals(ProcFiles.MAX_BYTES, ProcFiles.read(file.toString()).length());
    }
}
