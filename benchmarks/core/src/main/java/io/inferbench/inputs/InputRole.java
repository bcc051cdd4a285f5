package io.inferbench.inputs;

import java.util.Locale;

/**
 * How the harness fills an input. The token roles take what a token batch carries (synthetic ids, or real text with
 * its padding); every other input is {@link #GENERATED} by its {@link ValueGenerator}.
 */
public enum InputRole {
    /** Token ids: the batch's ids, in the vocabulary (or the text's tokenizer's). */
    TOKEN_IDS("input_ids"),
    /** 1 for a real token, 0 for padding. */
    ATTENTION_MASK("attention_mask"),
    /** Segment ids: all 0 (one segment). */
    TOKEN_TYPE_IDS("token_type_ids"),
    /** Positions 0..seq-1 in every row. */
    POSITION_IDS("position_ids"),
    GENERATED(null);

    private final String inputName;

    InputRole(String inputName) {
        this.inputName = inputName;
    }

    /** The role of an input by its name and type: the token names of integer inputs, else generated. */
    public static InputRole of(String name, ElementType type) {
        if (type.isInteger()) {
            for (InputRole role : values()) {
                if (name.equals(role.inputName)) {
                    return role;
                }
            }
        }
        return GENERATED;
    }

    public boolean isToken() {
        return this != GENERATED;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
