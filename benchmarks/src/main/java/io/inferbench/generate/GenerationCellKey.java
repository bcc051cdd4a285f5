package io.inferbench.generate;

/** One generation cell: an engine on a device, a model, a prompt length and a batch. */
record GenerationCellKey(String backend, String device, String model, int seqLen, int batch) {
    String label() {
        return backend + " " + device + " " + model + " prompt " + seqLen + " batch " + batch;
    }
}
