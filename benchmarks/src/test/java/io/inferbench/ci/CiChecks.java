package io.inferbench.ci;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checks {@code .ci/run} makes on what each documented command wrote, one named check per command or group of
 * commands: {@code java -cp ... io.inferbench.ci.CiChecks NAME [ARGS]} prints one {@code OK:} line with what it read,
 * or {@code FAIL: NAME: } and the rule broken, and exits 1. Paths are relative to the repository root, where
 * {@code .ci/run} runs; {@code results/latest} is the run the command before it wrote. {@code --list} names them all.
 *
 * <p>Each check's arguments are in its Javadoc; {@code CONSOLE} is the file holding the command's console output and
 * {@code RC} its exit code.
 */
public final class CiChecks {

    /** One check: reads what a command wrote, throws {@link Expect.Failed} at the first rule broken, returns its OK line. */
    @FunctionalInterface
    interface Check {
        String run(List<String> args) throws Exception;
    }

    static final Map<String, Check> CHECKS = checks();

    private CiChecks() {
    }

    private static Map<String, Check> checks() {
        Map<String, Check> all = new LinkedHashMap<>();
        all.put("default-run", SweepChecks::defaultRun);
        all.put("compare-gate", SweepChecks::compareGate);
        all.put("torchscript-work-unknown", SweepChecks::torchScriptWorkUnknown);
        all.put("image-cnn", SweepChecks::imageCnn);
        all.put("audio-encoder", SweepChecks::audioEncoder);
        all.put("pixel-module", SweepChecks::pixelModule);
        all.put("tiny-decoder", GenerationChecks::tinyDecoder);
        all.put("base-decoder", GenerationChecks::baseDecoder);
        all.put("bare-loop", GenerationChecks::bareLoop);
        all.put("user-decoder", GenerationChecks::userDecoder);
        all.put("sampling", GenerationChecks::sampling);
        all.put("generation-load", GenerationChecks::generationLoad);
        all.put("optimum-folder", GenerationChecks::optimumFolder);
        all.put("tiny-seq2seq", GenerationChecks::tinySeq2seq);
        all.put("seq2seq-folder", GenerationChecks::seq2seqFolder);
        all.put("whisper", GenerationChecks::whisper);
        all.put("text-service", TargetChecks::textService);
        all.put("djl-classifier", TargetChecks::djlClassifier);
        all.put("your-project", TargetChecks::yourProject);
        all.put("your-project-aa", TargetChecks::yourProjectAa);
        all.put("tokenizing-embedder", TargetChecks::tokenizingEmbedder);
        all.put("archetype-project", TargetChecks::archetypeProject);
        all.put("serving", ServingChecks::serving);
        all.put("soak-ablation", ServingChecks::soakAblation);
        all.put("text-ablation", ServingChecks::textAblation);
        all.put("europarl", InputChecks::europarl);
        all.put("lengths-served", InputChecks::lengthsServed);
        all.put("precision", InputChecks::precision);
        all.put("resources", InputChecks::resources);
        all.put("shards", InputChecks::shards);
        all.put("fleet", InputChecks::fleet);
        all.put("ab-models", AbChecks::abModels);
        all.put("documented-commands", AbChecks::documentedCommands);
        return all;
    }

    public static void main(String[] args) {
        if (args.length == 0 || args[0].equals("--list")) {
            System.out.println(String.join("\n", CHECKS.keySet()));
            System.exit(args.length == 0 ? 2 : 0);
        }
        Check check = CHECKS.get(args[0]);
        if (check == null) {
            System.err.println("FAIL: no check named '" + args[0] + "'; --list names them: " + CHECKS.keySet());
            System.exit(2);
        }
        try {
            System.out.println("OK: " + check.run(Arrays.asList(args).subList(1, args.length)));
        } catch (Expect.Failed e) {
            System.err.println("FAIL: " + args[0] + ": " + e.getMessage());
            System.exit(1);
        } catch (Exception e) {
            System.err.println("FAIL: " + args[0] + ": could not read what the command wrote: " + e);
            e.printStackTrace();
            System.exit(1);
        }
    }
}
