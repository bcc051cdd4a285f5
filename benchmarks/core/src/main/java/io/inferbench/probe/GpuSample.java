package io.inferbench.probe;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One line of {@code nvidia-smi --query-gpu=... --format=csv}: what the device reported at one moment. Every figure is
 * null where the line does not have it or the driver says {@code [N/A]} / {@code [Not Supported]}.
 *
 * @param epochMs            when nvidia-smi took it ({@code timestamp}, local time), ms since the epoch; null without one
 * @param index              the GPU's index
 * @param utilisationPercent {@code utilization.gpu}: the share of the last sample period in which a kernel ran (not how
 *                           many SMs it used: one small kernel at a time reads 100%)
 * @param memoryUsedMb       {@code memory.used}, the whole device's, every process's, MiB
 * @param memoryTotalMb      {@code memory.total}, MiB
 * @param powerWatts         {@code power.draw}: the board's draw, averaged by the driver over its own short window
 * @param smClockMhz         {@code clocks.current.sm}
 * @param throttleMask       {@code clocks_throttle_reasons.active} (renamed {@code clocks_event_reasons.active} in
 *                           newer drivers): NVML's bit mask of why the clocks are below their maximum
 */
public record GpuSample(Long epochMs, Integer index, Double utilisationPercent, Double memoryUsedMb, Double memoryTotalMb,
                        Double powerWatts, Double smClockMhz, Long throttleMask) {

    /** nvidia-smi's timestamp format, {@code 2019/08/23 14:54:47.307}. */
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss[.SSS]", Locale.ROOT);

    /**
     * NVML's throttle (clock event) reasons by bit ({@code nvmlClocksThrottleReason*} in {@code nvml.h}), the names
     * {@code nvidia-smi -q -d PERFORMANCE} prints.
     */
    static final Map<Long, String> REASONS = Map.of(0x1L, "GPU idle", 0x2L, "applications clocks setting", 0x4L,
            "SW power cap", 0x8L, "HW slowdown", 0x10L, "sync boost", 0x20L, "SW thermal slowdown", 0x40L,
            "HW thermal slowdown", 0x80L, "HW power brake slowdown", 0x100L, "display clock setting");

    /** The names of the reasons set in {@code mask}, lowest bit first; bits NVML does not name as {@code bit 0x...}. */
    public static List<String> reasons(long mask) {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < 64; bit++) {
            long b = 1L << bit;
            if ((mask & b) != 0) {
                names.add(REASONS.getOrDefault(b, "bit 0x" + Long.toHexString(b)));
            }
        }
        return names;
    }

    /**
     * The columns of a CSV header line, by field name: units in brackets dropped, the query aliases nvidia-smi prints
     * under another name mapped to one ({@code clocks.sm} prints as {@code clocks.current.sm}; the throttle reasons
     * under either name). Null when the line is not a header of a query with at least one field read here.
     */
    public static Map<String, Integer> header(String line) {
        String[] names = line.split(",");
        Map<String, Integer> columns = new HashMap<>();
        for (int i = 0; i < names.length; i++) {
            String name = names[i].replaceAll("\\[[^]]*]", "").trim().toLowerCase(Locale.ROOT);
            name = switch (name) {
                case "clocks.sm" -> "clocks.current.sm";
                case "clocks_event_reasons.active" -> "clocks_throttle_reasons.active";
                default -> name;
            };
            columns.put(name, i);
        }
        boolean known = columns.keySet().stream().anyMatch(n -> n.equals("utilization.gpu") || n.equals("memory.used")
                || n.equals("power.draw") || n.equals("clocks.current.sm") || n.equals("timestamp"));
        return known && !line.matches(".*\\d{4}/\\d{2}/\\d{2}.*") ? columns : null;
    }

    /** A data line under {@code columns}; null when it is not one (an error or warning nvidia-smi printed instead). */
    public static GpuSample parse(Map<String, Integer> columns, String line, ZoneId zone) {
        String[] values = line.split(",");
        if (values.length != columns.size()) {
            return null;
        }
        try {
            String stamp = value(columns, values, "timestamp");
            Long epochMs = null;
            if (stamp != null) {
                try {
                    epochMs = LocalDateTime.parse(stamp, TIMESTAMP).atZone(zone).toInstant().toEpochMilli();
                } catch (DateTimeParseException e) {
                    return null;
                }
            }
            String index = number(columns, values, "index");
            String mask = value(columns, values, "clocks_throttle_reasons.active");
            return new GpuSample(epochMs, index == null ? null : Integer.valueOf(index),
                    decimal(columns, values, "utilization.gpu"), decimal(columns, values, "memory.used"),
                    decimal(columns, values, "memory.total"), decimal(columns, values, "power.draw"),
                    decimal(columns, values, "clocks.current.sm"),
                    mask == null ? null : Long.parseUnsignedLong(mask.toLowerCase(Locale.ROOT).replaceFirst("^0x", ""), 16));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A field's text, trimmed; null where the line lacks the field or the driver has no value ({@code [N/A]}). */
    private static String value(Map<String, Integer> columns, String[] values, String name) {
        Integer i = columns.get(name);
        if (i == null) {
            return null;
        }
        String v = values[i].trim();
        return v.isEmpty() || v.startsWith("[") || v.equalsIgnoreCase("N/A") ? null : v;
    }

    /** A numeric field without its unit ({@code 208.36 W} and {@code 208.36} alike). */
    private static String number(Map<String, Integer> columns, String[] values, String name) {
        String v = value(columns, values, name);
        return v == null ? null : v.split("\\s+")[0];
    }

    private static Double decimal(Map<String, Integer> columns, String[] values, String name) {
        String v = number(columns, values, name);
        return v == null ? null : Double.valueOf(v);
    }
}
