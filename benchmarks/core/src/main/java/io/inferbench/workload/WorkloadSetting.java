package io.inferbench.workload;

import io.inferbench.option.Option;
import io.inferbench.option.PropertyValues;

import java.nio.file.Path;
import java.util.Properties;

/**
 * A real workload's settings: the text or lengths to analyse and stream after the sweep. Owned here, beside what reads
 * them ({@link #read}).
 */
public enum WorkloadSetting implements Option.Defined {
    TEXT("bench.text", "", "real inputs: a UTF-8 file of one document per line, or `europarl` for the built-in corpus; "
            + "tokenized with `bench.tokenizer`"),
    TOKENIZER("bench.tokenizer", "", "a Hugging Face `tokenizer.json`; empty means the built-in all-MiniLM-L6-v2 WordPiece "
            + "tokenizer"),
    LENGTHS("bench.lengths", "", "real lengths without the text: a file of token counts, one per line or `length,count`"),
    MAX_LENGTH("bench.maxLength", "", "the model's longest input in tokens; longer requests are truncated and counted. Empty "
            + "means none (the built-in encoders take any length)"),
    MIXED_REQUESTS("bench.mixedRequests", "500", "requests in the measured mixed stream of a workload, per engine and model");

    private final Option.Definition definition;

    WorkloadSetting(String property, String defaultValue, String meaning) {
        this.definition = new Option.Definition(property, defaultValue, meaning);
    }

    @Override
    public Option.Definition definition() {
        return definition;
    }

    /** Which real inputs to analyse and stream after the sweep, if any. */
    public static WorkloadOptions read(Properties p) {
        return new WorkloadOptions(TEXT.userValue(p).orElse(null),
                TOKENIZER.userValue(p).map(Path::of).map(Path::toAbsolutePath).orElse(null),
                LENGTHS.userValue(p).map(Path::of).map(Path::toAbsolutePath).orElse(null),
                MAX_LENGTH.userValue(p).isPresent() ? PropertyValues.positiveInt(MAX_LENGTH, p) : null,
                PropertyValues.positiveInt(MIXED_REQUESTS, p));
    }
}
