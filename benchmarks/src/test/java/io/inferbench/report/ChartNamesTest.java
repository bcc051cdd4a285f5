package io.inferbench.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 54, item 8: two models never write one plot file, whatever their names. */
class ChartNamesTest {
    @Test
    void aBuiltInKeepsItsPlainName() {
        assertEquals("tiny", Charts.modelSlug("tiny"));
        assertEquals("tiny-int8", Charts.modelSlug("tiny-int8"));
    }

    @Test
    void twoFilesOfOneNameInTwoFoldersGetTwoNames() {
        String a = Charts.modelSlug("exports/a/model.onnx");
        String b = Charts.modelSlug("exports/b/model.onnx");
        assertNotEquals(a, b);
        assertTrue(a.startsWith("model.onnx-") && b.startsWith("model.onnx-"), a + " " + b);
    }

    @Test
    void namesAFileNameCannotKeepStayApart() {
        String cyrillic = Charts.modelSlug("модель.onnx");
        String greek = Charts.modelSlug("μοντέλο.onnx");
        assertNotEquals(cyrillic, greek, "both would be _.onnx without the hash");
        assertTrue(cyrillic.matches("[A-Za-z0-9._-]+"), cyrillic);
    }
}
