package io.inferbench.roofline;

import io.inferbench.results.ProfileResult;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Published peaks of known GPUs ({@code gpu-datasheets.csv} beside this class), matched by the name {@code nvidia-smi}
 * reports, to list beside the measured peaks: a measured peak far below the datasheet says the engine, not the GPU, is
 * the limit. Rows are tried in order, so the more specific names come first in the file.
 */
public final class GpuDatasheets {
    private GpuDatasheets() {
    }

    public static Optional<ProfileResult.Datasheet> match(String gpuName) {
        if (gpuName == null) {
            return Optional.empty();
        }
        String name = gpuName.toUpperCase(java.util.Locale.ROOT);
        for (String[] row : rows()) {
            // A whole-token match, so that "A10" is not found in "A100" nor "L4" in "L40S".
            String token = java.util.regex.Pattern.quote(row[0].toUpperCase(java.util.Locale.ROOT));
            if (java.util.regex.Pattern.compile("(^|[^A-Z0-9])" + token + "([^A-Z0-9]|$)").matcher(name).find()) {
                return Optional.of(new ProfileResult.Datasheet(row[1], Double.parseDouble(row[2]), Double.parseDouble(row[3]),
                        Double.parseDouble(row[4]), row[5]));
            }
        }
        return Optional.empty();
    }

    static List<String[]> rows() {
        try (InputStream in = GpuDatasheets.class.getResourceAsStream("gpu-datasheets.csv")) {
            List<String[]> rows = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    rows.add(line.split(",", 6));
                }
            }
            return rows;
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("gpu-datasheets.csv is part of the build and could not be read", e);
        }
    }
}
