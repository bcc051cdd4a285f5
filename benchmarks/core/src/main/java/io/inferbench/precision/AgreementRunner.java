package io.inferbench.precision;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.OutputSpec;
import io.inferbench.engine.Pairing;
import io.inferbench.engine.Pairings;
import io.inferbench.engine.SessionDefaults;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.TokenBatch;
import io.inferbench.model.ModelSource;
import io.inferbench.model.TokenInputs;
import io.inferbench.results.AgreementResult;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * After the sweep, in its JVM: every model against the reference on each engine and device, at every (seq, batch) of
 * the sweep, on {@link AgreementOptions#inputsPerShape} seeded input batches that both see exactly (the same token ids,
 * every row full length). The sessions are separate from the sweep's and nothing here is timed: the speed-ups come from
 * the sweep's own cells, measured the same way for both models.
 */
public final class AgreementRunner {
    private final SessionDefaults sessions;
    private final String reference;
    private final AgreementOptions options;
    private final PrintStream console;

    /**
     * @param reference the reference model, one of the run's ({@code bench.reference}); a file's path as given or as the
     *                  run resolved it (absolute), which is how the run's models and cells name it
     */
    public AgreementRunner(SessionDefaults sessions, String reference, AgreementOptions options, PrintStream console) {
        this.sessions = sessions;
        this.reference = ModelSource.parse(reference).name();
        this.options = options;
        this.console = console;
    }

    /** The seed of input {@code index} at a shape: from {@code bench.seed}, the shape and the index, the same for every model. */
    static long inputSeed(long seed, int seqLen, int batch, int index) {
        return Objects.hash(seed, seqLen, batch, index);
    }

    public AgreementResult run(RunResult run) {
        RunConfig.Plan plan = run.config().plan();
        List<Pairing> pairings = Pairings.of(plan.backends(), plan.devices(),
                plan.models().stream().map(RunConfig.ModelInfo::name).toList(), Pairings.Purpose.FORWARD);
        List<AgreementResult.Pair> pairs = new ArrayList<>();
        for (Pairing ofReference : pairings.stream().filter(p -> p.model().equals(reference)).toList()) {
            List<String> candidates = pairings.stream().filter(p -> p.engine().equals(ofReference.engine())
                    && p.device().equals(ofReference.device()) && !p.model().equals(reference)).map(Pairing::model).toList();
            if (!candidates.isEmpty()) {
                console.println("[inferbench] comparing " + candidates + " with the reference " + reference + " on "
                        + ofReference.engine() + "/" + ofReference.device() + ": " + options.inputsPerShape()
                        + " seeded batches per shape");
                pairs.addAll(compare(sessions.backend(ofReference.engine()), ofReference.device(), candidates, run));
            }
        }
        return new AgreementResult(reference, options.inputsPerShape(), options.minCosine(), options.minTop1(),
                Text.f("%d seeded batches per (seq, batch) shape, every row full length, the same token ids for the reference "
                        + "and the model (seeded from bench.seed, the shape and the batch's index), and the same generated "
                        + "values for any other input (each batch a new draw); the first output of each "
                        + "pass, read as [batch, values per row]; max relative error is per row, over the row's largest "
                        + "reference magnitude; a shape agrees when every row's cosine is at least %s and, for classifiers, "
                        + "at least %s of rows keep their top-1 class; speed-ups are the sweep's p50 (p99) of the reference "
                        + "over the model's", options.inputsPerShape(), Text.number(options.minCosine()),
                        Text.number(options.minTop1())), List.copyOf(pairs));
    }

    private List<AgreementResult.Pair> compare(InferenceEngine backend, String device, List<String> candidates, RunResult run) {
        List<CellResult> cells = run.cells();
        Map<String, InferenceSession> open = new LinkedHashMap<>();
        Map<String, InferenceSession.Runner> runners = new LinkedHashMap<>();
        try {
            for (String model : prepend(reference, candidates)) {
                InferenceSession session = backend.open(spec(model, device));
                open.put(model, session);
                runners.put(model, session.newRunner());
            }
            OutputSpec referenceOutput = open.get(reference).outputs().get(0);
            boolean classifier = OutputMatch.classifier(referenceOutput);
            Map<String, List<AgreementResult.ShapeAgreement>> shapes = new LinkedHashMap<>();
            Map<String, String> refusals = new LinkedHashMap<>();
            for (String model : candidates) {
                String refusal = OutputMatch.refusal(open.get(reference).outputs(), open.get(model).outputs());
                if (refusal != null) {
                    refusals.put(model, refusal);
                }
                shapes.put(model, new ArrayList<>());
            }
            for (int seq : run.config().plan().seqLens()) {
                for (int batch : run.config().plan().batches()) {
                    Map<String, OutputAgreement> agreements = new LinkedHashMap<>();
                    candidates.stream().filter(m -> !refusals.containsKey(m)).forEach(m -> agreements.put(m, new OutputAgreement(classifier)));
                    for (int i = 0; i < options.inputsPerShape() && !agreements.isEmpty(); i++) {
                        TokenBatch tokens = TokenBatch.full(batch, seq, TokenInputs.tokenIds(batch, seq,
                                inputSeed(sessions.seed(), seq, batch, i)));
                        float[] expected = pass(runners.get(reference), tokens);
                        for (String model : List.copyOf(agreements.keySet())) {
                            try {
                                agreements.get(model).add(expected, pass(runners.get(model), tokens), batch);
                            } catch (IllegalArgumentException e) {
                                refusals.put(model, "at batch " + batch + " x seq " + seq + ": " + e.getMessage());
                                agreements.remove(model);
                            }
                        }
                    }
                    agreements.forEach((model, agreement) -> shapes.get(model).add(shape(agreement.stats(), backend.name(), device,
                            reference, model, seq, batch, cells)));
                }
            }
            List<AgreementResult.Pair> pairs = new ArrayList<>();
            for (String model : candidates) {
                String refusal = refusals.get(model);
                pairs.add(new AgreementResult.Pair(backend.name(), device, model, referenceOutput.toString(), classifier,
                        refusal == null ? List.copyOf(shapes.get(model)) : List.of(), refusal));
            }
            return pairs;
        } finally {
            runners.values().forEach(InferenceSession.Runner::close);
            open.values().forEach(InferenceSession::close);
        }
    }

    private AgreementResult.ShapeAgreement shape(OutputAgreement.Stats stats, String backend, String device, String reference,
                                                 String model, int seq, int batch, List<CellResult> cells) {
        CellResult ref = cell(cells, backend, device, reference, seq, batch);
        CellResult own = cell(cells, backend, device, model, seq, batch);
        Double refP50 = ref == null ? null : ref.latencyMs().p50Ms();
        Double ownP50 = own == null ? null : own.latencyMs().p50Ms();
        Double speedupP50 = ref == null || own == null ? null : ref.latencyMs().p50Ms() / own.latencyMs().p50Ms();
        Double speedupP99 = ref == null || own == null ? null : ref.latencyMs().p99Ms() / own.latencyMs().p99Ms();
        boolean agrees = stats.minCosine() >= options.minCosine()
                && (stats.top1Agreement() == null || stats.top1Agreement() >= options.minTop1());
        return new AgreementResult.ShapeAgreement(seq, batch, stats.rows(), stats.valuesPerRow(), stats.maxAbsError(),
                stats.maxRelError(), stats.minCosine(), stats.meanCosine(), stats.top1Agreement(), refP50, ownP50, speedupP50,
                speedupP99, agrees);
    }

    private static CellResult cell(List<CellResult> cells, String backend, String device, String model, int seq, int batch) {
        return cells.stream().filter(c -> c.measured() && c.backend().equals(backend) && c.device().equals(device)
                && c.model().equals(model) && c.seqLen() == seq && c.batch() == batch).findFirst().orElse(null);
    }

    private static float[] pass(InferenceSession.Runner runner, TokenBatch tokens) {
        runner.prepare(tokens);
        runner.forward();
        float[] output = runner.firstOutput();
        if (output.length == 0) {
            throw new BenchmarkException("The model's first output is not a float tensor, so its values cannot be compared");
        }
        return output;
    }

    private SessionSpec spec(String model, String device) {
        return sessions.spec(ModelSource.parse(model), device);
    }

    private static List<String> prepend(String first, List<String> rest) {
        List<String> all = new ArrayList<>();
        all.add(first);
        all.addAll(rest);
        return all;
    }
}
