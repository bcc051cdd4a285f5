package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonValue;

/** Whether a cell was measured ({@code ok}) or its fork failed ({@code failed}, with the error kept). */
public enum CellStatus {
    OK("ok"),
    FAILED("failed");

    private final String label;

    CellStatus(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }
}
