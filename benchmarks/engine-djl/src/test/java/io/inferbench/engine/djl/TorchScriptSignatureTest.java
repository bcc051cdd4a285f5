package io.inferbench.engine.djl;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class TorchScriptSignatureTest {
    @Test
    void readsTheRootModulesForwardArgumentsWithNestedTypes() {
        String source = """
                class Inner(Module):
                  def forward(self: __torch__.Inner, x: Tensor) -> Tensor:
                    return x
                class Encoder(Module):
                  inner : __torch__.Inner
                  def forward(self: __torch__.Encoder,
                    input_ids: Tensor,
                    attention_mask: Optional[Tensor]=None,
                    token_type_ids: Tuple[Tensor, Tensor]) -> Tuple[Tensor, Tensor]:
                    return (input_ids, input_ids)
                """;
        assertEquals(List.of("input_ids", "attention_mask", "token_type_ids"), TorchScriptSignature.parseForward(source, "Encoder"));
        assertEquals(List.of("x"), TorchScriptSignature.parseForward(source, "Inner"));
        assertEquals(List.of(), TorchScriptSignature.parseForward(source, "Missing"));
    }

    @Test
    void readsTheRootClassFromThePickle() {
        byte[] pickle = "\u0080\u0002c__torch__\nTinyClassifier\nq\u0000)".getBytes(StandardCharsets.ISO_8859_1);
        assertArrayEquals(new String[] {"__torch__", "TinyClassifier"}, TorchScriptSignature.rootClass(pickle));
    }

    @Test
    void aFileThatIsNotAnArchiveGivesNoArguments() {
        assertEquals(List.of(), TorchScriptSignature.forwardArguments(Path.of("pom.xml")));
    }
}
