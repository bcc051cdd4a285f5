package io.inferbench.generate;

import io.inferbench.engine.DecoderSession;
import io.inferbench.measure.NanoClock;
import io.inferbench.measure.PhaseSink;
import io.inferbench.runner.KindSession;

import java.util.ArrayList;
import java.util.List;

/**
 * One generation cell's unit: a whole {@link Generation} of a seeded prompt. The recorder's clock around
 * {@link #forward} is the generation's own time (the prefill to the last pick), what the warm-up and stop rules see; its
 * phases, each from the generation's own clock readings, go to the cell's recorder after it, outside the timed region:
 * <ul>
 *   <li>{@value #ENCODE}: an encoder-decoder's encoder pass (not recorded for a decoder alone);</li>
 *   <li>{@value #TTFT}: the encoder pass (if any), the prefill pass and the first pick;</li>
 *   <li>{@value #PREFILL}: the prefill pass alone;</li>
 *   <li>{@value #STEP}: every decode step, its pass and its pick; and {@code step.K}, the K-th step alone (K from 1), the
 *       cost of a longer cache;</li>
 *   <li>{@value #HAND_OFF}: from one step's tokens to the next step's inputs;</li>
 *   <li>{@value #PICK}: every pick alone (the first token's and each step's), greedy or sampled.</li>
 * </ul>
 * The prompt's inputs are made before each timed generation, and its cache released after it ({@link #beforeTimed},
 * {@link #afterTimed}).
 */
final class GenerationUnit implements KindSession.Unit {
    static final String ENCODE = "encode";
    static final String TTFT = "ttft";
    static final String PREFILL = "prefill";
    static final String STEP = "step";
    static final String HAND_OFF = "handOff";
    static final String PICK = "pick";

    private final DecoderSession decoder;
    private final long[] prompt;
    private final int batch;
    private final int promptLength;
    private final int newTokens;
    private final PhaseSink phases;
    private final Sampling.Picker picker;
    private Generation last;

    GenerationUnit(DecoderSession decoder, long[] prompt, int batch, int promptLength, int newTokens, PhaseSink phases,
                   Sampling.Picker picker) {
        this.decoder = decoder;
        this.picker = picker;
        this.prompt = prompt;
        this.batch = batch;
        this.promptLength = promptLength;
        this.newTokens = newTokens;
        this.phases = phases;
    }

    /** The phase of decode step {@code k}, 1-based: {@code step.1} is the first step after the prefill. */
    static String stepAt(int k) {
        return STEP + "." + k;
    }

    @Override
    public List<String> phases() {
        List<String> names = new ArrayList<>(List.of(ENCODE, TTFT, PREFILL, STEP, HAND_OFF, PICK));
        for (int k = 1; k < newTokens; k++) {
            names.add(stepAt(k));
        }
        return names;
    }

    @Override
    public List<String> summaryPhases() {
        return newTokens > 1 ? List.of(TTFT, STEP) : List.of(TTFT);
    }

    @Override
    public void beforeTimed() {
        decoder.prepare(prompt, batch, promptLength);
        picker.reset();
    }

    /** The generation; its tokens' sum for the blackhole. */
    @Override
    public long forward() {
        last = Generation.timed(decoder, batch, newTokens, NanoClock.SYSTEM, picker);
        long sum = 0;
        for (long[] row : last.tokens()) {
            for (long token : row) {
                sum += token;
            }
        }
        return sum;
    }

    /** Records the generation's phases, then releases its tensors. */
    @Override
    public void afterTimed() {
        phases.record(TTFT, last.ttftNs());
        phases.record(PREFILL, last.prefillNs());
        if (decoder.hasEncoder()) {
            phases.record(ENCODE, last.encodeNs());
        }
        for (long pickNs : last.pickNs()) {
            phases.record(PICK, pickNs);
        }
        for (int i = 0; i < last.stepNs().length; i++) {
            phases.record(STEP, last.stepNs()[i]);
            phases.record(HAND_OFF, last.handOffNs()[i]);
            phases.record(stepAt(i + 1), last.stepNs()[i]);
        }
        decoder.finish();
    }

    /**
     * The tokens and cache bytes of a greedy generation, for the agreement with the reference: the last timed one's when
     * the cell picks greedily (every generation of it makes the same tokens), else one more, untimed and greedy.
     */
    @Override
    public Object output() {
        if (last == null) {
            return null;
        }
        if (picker.greedy()) {
            return new GenerationOutput(last.tokens(), last.cacheBytes(), last.crossCacheBytes());
        }
        Generation greedy = Generation.run(decoder, prompt, batch, promptLength, newTokens, NanoClock.SYSTEM);
        return new GenerationOutput(greedy.tokens(), greedy.cacheBytes(), greedy.crossCacheBytes());
    }

}
