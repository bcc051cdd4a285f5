package io.inferbench.engine;

import io.inferbench.BenchmarkException;

import java.util.Locale;

/** Where a session runs: {@code cpu}, or {@code cuda:N} ({@code cuda} means {@code cuda:0}). */
public record Device(Kind kind, int index) {
    public enum Kind { CPU, CUDA }

    public Device {
        if (index < 0) {
            throw new BenchmarkException("Device index must be 0 or more, got " + index);
        }
    }

    public static Device parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("cpu")) {
            return new Device(Kind.CPU, 0);
        }
        if (v.equals("cuda")) {
            return new Device(Kind.CUDA, 0);
        }
        if (v.startsWith("cuda:")) {
            try {
                return new Device(Kind.CUDA, Integer.parseInt(v.substring("cuda:".length())));
            } catch (NumberFormatException e) {
                throw new BenchmarkException("Bad device '" + value + "': the CUDA device index must be a number, as in cuda:0", e);
            }
        }
        throw new BenchmarkException("Unknown device '" + value + "': expected one of cpu, cuda, cuda:N");
    }

    public boolean isCuda() {
        return kind == Kind.CUDA;
    }

    @Override
    public String toString() {
        return kind == Kind.CPU ? "cpu" : "cuda:" + index;
    }
}
