package io.inferbench.engine.djl;

import io.inferbench.engine.TextTokenizer;

import java.nio.file.Path;

/** Registers {@link HuggingFaceTextTokenizer} as the {@link TextTokenizer.Factory}. */
public final class HuggingFaceTokenizerFactory implements TextTokenizer.Factory {
    @Override
    public TextTokenizer open(Path tokenizerJson, Path nativeCacheDir) {
        return HuggingFaceTextTokenizer.open(tokenizerJson, nativeCacheDir);
    }
}
