package io.inferbench.analysis;

import java.util.Comparator;

/**
 * What one batch-scaling series shares: the engine, the device, the model and the sequence length. The key that
 * the analysis groups by, that a comparison pools and matches verdicts by, and that tables and plots are laid out by.
 *
 * <p>{@link #label()} is its one text form, {@code backend/device/model/seqN}, which cell ids extend with
 * {@code /batchN}.
 */
public record SeriesKey(String backend, String device, String model, int seqLen) implements Comparable<SeriesKey> {
    private static final Comparator<SeriesKey> ORDER = Comparator.comparing(SeriesKey::backend)
            .thenComparing(SeriesKey::device).thenComparing(SeriesKey::model).thenComparingInt(SeriesKey::seqLen);

    /** {@code backend/device/model/seqN}. */
    public String label() {
        return backend + "/" + device + "/" + model + "/seq" + seqLen;
    }

    /** The cell of this series at {@code batch}: {@code backend/device/model/seqN/batchN}. */
    public String cellId(int batch) {
        return label() + "/batch" + batch;
    }

    /** The same engine, device and model, whatever the sequence length: what one set of plots covers. */
    public EngineModel engineModel() {
        return new EngineModel(backend, device, model);
    }

    @Override
    public int compareTo(SeriesKey other) {
        return ORDER.compare(this, other);
    }

    /** An engine on a device running a model: the cells of every sequence length and batch size. */
    public record EngineModel(String backend, String device, String model) {
        public String label() {
            return backend + "/" + device + "/" + model;
        }

        /** A record named by its engine, device and model ({@code target}): their fields read through it. */
        public interface Named {
            EngineModel target();

            default String backend() {
                return target().backend();
            }

            default String device() {
                return target().device();
            }

            default String model() {
                return target().model();
            }
        }
    }

    /** A record named by its series ({@code series}): the series' fields read through it. */
    public interface Named {
        SeriesKey series();

        default String backend() {
            return series().backend();
        }

        default String device() {
            return series().device();
        }

        default String model() {
            return series().model();
        }

        default int seqLen() {
            return series().seqLen();
        }
    }
}
