package io.inferbench.results;

import java.util.List;

/**
 * What a CPU is, beyond its marketing name: virtual machines print a generic name ("AMD EPYC") for parts of different
 * generations, whose measured peaks differ several times over. Read from {@code /proc/cpuinfo} and cpufreq on Linux;
 * a field that cannot be read is null.
 *
 * @param vendor   {@code vendor_id}, e.g. {@code AuthenticAMD}
 * @param family   {@code cpu family}
 * @param model    {@code model}
 * @param stepping {@code stepping}
 * @param isaFlags the instruction-set flags that change inference kernels' speed, of those the CPU reports (AVX2, FMA,
 *                 F16C, the AVX-512 subsets, VNNI, BF16, AMX), in a fixed order
 * @param maxMhz   the highest clock cpufreq reports, in MHz; null where it is not readable (as in many VMs)
 */
public record CpuIdentity(String vendor, Integer family, Integer model, Integer stepping, List<String> isaFlags, Double maxMhz) {
    /** The flags {@link #isaFlags} keeps, in this order. */
    public static final List<String> FLAGS_THAT_MATTER = List.of("avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl",
            "avx512_vnni", "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile", "amx_int8", "amx_bf16");

    /** Vendor, family, model and stepping: the part, whatever its name. */
    public String part() {
        return vendor + " family " + family + " model " + model + " stepping " + stepping;
    }
}
