package io.inferbench.inputs;

import io.inferbench.BenchmarkException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The planner's bindings and each refusal it owes a user, on declared inputs alone: no engine. */
class InputPlannerTest {
    @TempDir
    Path dir;

    private static ModelInput in(String name, ElementType type, Object... dims) {
        return new ModelInput(name, type, java.util.Arrays.stream(dims)
                .map(d -> d instanceof String s ? Dim.named(s) : Dim.fixed(((Number) d).longValue())).toList());
    }

    private static InputPlan plan(List<ModelInput> declared, InputOptions options) {
        return InputPlanner.plan("m.onnx", declared, options, null);
    }

    private static String refusal(List<ModelInput> declared, InputOptions options, InputSpecFile spec) {
        return assertThrows(BenchmarkException.class, () -> InputPlanner.plan("m.onnx", declared, options, spec)).getMessage();
    }

    private InputSpecFile spec(String json) throws IOException {
        Path file = dir.resolve("spec.json");
        Files.writeString(file, json);
        return InputSpecFile.read(file);
    }

    @Test
    void bertStyleInputsKeepTheirTokenRolesAndSweepTheTokenAxis() {
        InputPlan plan = plan(List.of(in("input_ids", ElementType.INT64, "batch", "seq"),
                in("attention_mask", ElementType.INT64, "batch", "seq"), in("token_type_ids", ElementType.INT64, "batch", "seq")),
                InputOptions.NONE);
        assertEquals("batch", plan.batchAxis());
        assertEquals("seq", plan.seqAxis());
        assertEquals(List.of(InputRole.TOKEN_IDS, InputRole.ATTENTION_MASK, InputRole.TOKEN_TYPE_IDS),
                plan.inputs().stream().map(PlannedInput::role).toList());
        assertFalse(plan.batchOnly());
        assertArrayEquals(new long[] {4, 64}, plan.shape(plan.inputs().get(0), 4, 64));
    }

    @Test
    void unnamedDynamicAxesAreTheBatchAndTheTokenAxis() {
        InputPlan plan = plan(List.of(in("input_ids", ElementType.INT64, "", "")), InputOptions.NONE);
        assertEquals("batch", plan.batchAxis());
        assertEquals("sequence", plan.seqAxis());
    }

    @Test
    void anImageModelRunsBatchOnlyOnNormalValues() {
        InputPlan plan = plan(List.of(in("pixel_values", ElementType.FLOAT32, "batch", 3, 64, 64)), InputOptions.NONE);
        assertTrue(plan.batchOnly());
        assertNull(plan.incompatibility(8, 0));
        assertTrue(plan.incompatibility(8, 64).contains("runs batch only"));
        assertEquals("normal(0,1)", plan.inputs().get(0).values().label());
    }

    @Test
    void theSweptAxisCanBeNamedAndOtherInputsFollowTheBatch() {
        InputPlan plan = plan(List.of(in("input_features", ElementType.FLOAT32, "batch", "frames", 80),
                in("speaker", ElementType.FLOAT32, "batch_size", 16)), new InputOptions("frames", Map.of(), null));
        assertEquals("frames", plan.seqAxis());
        assertArrayEquals(new long[] {3, 100, 80}, plan.shape(plan.inputs().get(0), 3, 100));
        assertArrayEquals(new long[] {3, 16}, plan.shape(plan.inputs().get(1), 3, 100), "every input's leading dynamic axis is the batch");
    }

    @Test
    void aDynamicAxisLeftUnboundIsRefusedWithTheAxesAndTheProperty() {
        List<ModelInput> audio = List.of(in("input_features", ElementType.FLOAT32, "batch", "frames", 80));
        String message = refusal(audio, InputOptions.NONE, null);
        assertTrue(message.contains("[frames]"), message);
        assertTrue(message.contains("-Dbench.dims=frames=N"), message);
        assertTrue(message.contains("-Dbench.seqAxis"), message);
        InputPlan bound = plan(audio, new InputOptions(null, Map.of("frames", 30L), null));
        assertTrue(bound.batchOnly());
        assertArrayEquals(new long[] {2, 30, 80}, bound.shape(bound.inputs().get(0), 2, 0));
    }

    @Test
    void bindingsThatNameNoAxisOrTheSweptOnesAreRefused() {
        List<ModelInput> decoder = List.of(in("input_ids", ElementType.INT64, "batch", "seq"),
                in("past_key", ElementType.FLOAT32, "batch", 4, "past", 32));
        assertTrue(refusal(decoder, new InputOptions("height", Map.of(), null), null).contains("-Dbench.seqAxis=height is not one of"));
        assertTrue(refusal(decoder, new InputOptions(null, Map.of("past", 8L, "width", 3L), null), null)
                .contains("binds 'width', which is not one of its dynamic axes. Its axes to bind: [past]"));
        assertTrue(refusal(decoder, new InputOptions(null, Map.of("past", 8L, "seq", 3L), null), null).contains("follows -Dbench.seq"));
        InputPlan plan = plan(decoder, new InputOptions(null, Map.of("past", 8L), null));
        assertArrayEquals(new long[] {2, 4, 8, 32}, plan.shape(plan.inputs().get(1), 2, 16));
        assertEquals(InputRole.GENERATED, plan.inputs().get(1).role());
    }

    @Test
    void aTypeTheHarnessCannotFillIsRefusedByName() {
        String message = refusal(List.of(new ModelInput("text", "string", null, List.of(Dim.named("batch")))), InputOptions.NONE, null);
        assertTrue(message.contains("'text' of type string"), message);
    }

    @Test
    void theSpecMustListExactlyTheModelsInputsWithItsTypesRanksAndFixedAxes() throws IOException {
        List<ModelInput> cnn = List.of(in("pixel_values", ElementType.FLOAT32, "batch", 3, 64, 64));
        assertTrue(refusal(cnn, InputOptions.NONE, spec("{\"inputs\": [{\"name\": \"pixels\", \"type\": \"float32\", \"shape\": [\"batch\", 3, 64, 64]}]}"))
                .contains("has no input 'pixels'"));
        assertTrue(refusal(List.of(cnn.get(0), in("mask", ElementType.BOOL, "batch", 64)), InputOptions.NONE,
                spec("{\"inputs\": [{\"name\": \"pixel_values\", \"type\": \"float32\", \"shape\": [\"batch\", 3, 64, 64]}]}"))
                .contains("lacks the model's input(s) [mask]"));
        assertTrue(refusal(cnn, InputOptions.NONE, spec("{\"inputs\": [{\"name\": \"pixel_values\", \"type\": \"float16\", \"shape\": [\"batch\", 3, 64, 64]}]}"))
                .contains("is float32, but the input spec says float16"));
        assertTrue(refusal(cnn, InputOptions.NONE, spec("{\"inputs\": [{\"name\": \"pixel_values\", \"type\": \"float32\", \"shape\": [\"batch\", 3, 64]}]}"))
                .contains("has rank 4"));
        assertTrue(refusal(cnn, InputOptions.NONE, spec("{\"inputs\": [{\"name\": \"pixel_values\", \"type\": \"float32\", \"shape\": [\"batch\", 3, 32, 64]}]}"))
                .contains("axis 2 fixed at 64, but the input spec gives 32"));
        assertTrue(refusal(cnn, InputOptions.NONE, spec("{\"inputs\": [{\"name\": \"pixel_values\", \"type\": \"float32\", \"shape\": [\"batch\", 3, 64, 64], \"values\": \"ids\"}]}"))
                .contains("ids are for integer inputs"));
    }

    @Test
    void theSpecChoosesValuesAndCanFixADynamicAxis() throws IOException {
        List<ModelInput> declared = List.of(in("input_ids", ElementType.INT64, "batch", "seq"),
                in("scores", ElementType.FLOAT32, "batch", "n"));
        InputPlan plan = InputPlanner.plan("m.onnx", declared, InputOptions.NONE, spec("{\"inputs\": ["
                + "{\"name\": \"input_ids\", \"type\": \"int64\", \"shape\": [\"batch\", \"seq\"], \"values\": {\"range\": [5, 7]}},"
                + "{\"name\": \"scores\", \"type\": \"float32\", \"shape\": [\"batch\", 12], \"values\": {\"const\": 0.5}}]}"));
        assertEquals(InputRole.GENERATED, plan.inputs().get(0).role(), "values chosen in the spec replace the token batch");
        assertEquals("range[5,7]", plan.inputs().get(0).valuesLabel());
        assertArrayEquals(new long[] {2, 12}, plan.shape(plan.inputs().get(1), 2, 8));
        assertEquals(64, plan.specSha256().length());

        InputFill fill = new InputFill(plan, 42);
        ByteBuffer ids = ByteBuffer.allocate(2 * 8 * 8).order(ByteOrder.nativeOrder());
        fill.write(plan.inputs().get(0), ids, 2, 8, new long[16], null);
        ids.flip();
        java.util.Set<Long> seen = new java.util.TreeSet<>();
        while (ids.hasRemaining()) {
            seen.add(ids.getLong());
        }
        assertEquals(java.util.Set.of(5L, 6L, 7L), seen, "a range of integers is inclusive at both ends");
    }

    private static float[] draw(InputFill fill, PlannedInput input, int batch) {
        ByteBuffer out = ByteBuffer.allocate(batch * 4 * 4).order(ByteOrder.nativeOrder());
        fill.write(input, out, batch, 0, new long[0], null);
        out.flip();
        float[] values = new float[batch * 4];
        out.asFloatBuffer().get(values);
        return values;
    }

    /**
     * A cell's first batch is the same whatever the fork ran before it (the cells' order differs by round), and a second
     * batch at a shape (serving's next request, the agreement check's next seeded batch) is a new draw.
     */
    @Test
    void theFirstBatchAtAShapeIsTheSameInEveryForkAndLaterOnesDiffer() {
        InputPlan plan = plan(List.of(in("x", ElementType.FLOAT32, "batch", 4)), InputOptions.NONE);
        PlannedInput x = plan.inputs().get(0);
        InputFill oneOrder = new InputFill(plan, 7);
        draw(oneOrder, x, 2);
        float[] first = draw(oneOrder, x, 4);
        InputFill otherOrder = new InputFill(plan, 7);
        assertArrayEquals(first, draw(otherOrder, x, 4));
        assertFalse(java.util.Arrays.equals(first, draw(otherOrder, x, 4)), "the next batch at the shape is a new draw");
        assertFalse(java.util.Arrays.equals(first, draw(new InputFill(plan, 8), x, 4)), "another seed, other values");
    }

    @Test
    void badSpecFilesNameTheirMistake() {
        assertTrue(assertThrows(BenchmarkException.class, () -> spec("{\"inputs\": [{\"name\": \"x\", \"type\": \"float64\", \"shape\": [1]}]}"))
                .getMessage().contains("type 'float64'"));
        assertTrue(assertThrows(BenchmarkException.class, () -> spec("{\"inputs\": [{\"name\": \"x\", \"type\": \"float32\", \"shape\": [1], \"value\": \"normal\"}]}"))
                .getMessage().contains("unknown key \"value\""));
        assertTrue(assertThrows(BenchmarkException.class, () -> spec("{\"inputs\": [{\"name\": \"x\", \"type\": \"float32\", \"shape\": [1], \"values\": \"gaussian\"}]}"))
                .getMessage().contains("values \"gaussian\""));
        assertTrue(assertThrows(BenchmarkException.class, () -> spec("{\"inputs\": [")).getMessage().contains("not valid JSON"));
    }

    @Test
    void npyRowsAreTakenInTurnAndTheirShapeAndTypeAreChecked() throws IOException {
        Path npy = dir.resolve("rows.npy");
        Files.write(npy, NpyArrayTest.npy("<f4", new int[] {3, 2}, new float[] {1, 2, 3, 4, 5, 6}));
        List<ModelInput> declared = List.of(in("x", ElementType.FLOAT32, "batch", 2));
        InputPlan plan = InputPlanner.plan("m.onnx", declared, InputOptions.NONE,
                spec("{\"inputs\": [{\"name\": \"x\", \"type\": \"float32\", \"shape\": [\"batch\", 2], \"values\": {\"npy\": \"rows.npy\"}}]}"));
        InputFill fill = new InputFill(plan, 1);
        float[] seen = new float[8];
        for (int pass = 0; pass < 2; pass++) {
            ByteBuffer out = ByteBuffer.allocate(2 * 2 * 4).order(ByteOrder.nativeOrder());
            fill.write(plan.inputs().get(0), out, 2, 0, new long[0], null);
            out.flip();
            for (int i = 0; i < 4; i++) {
                seen[pass * 4 + i] = out.getFloat();
            }
        }
        assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6, 1, 2}, seen, "rows 0-1, then 2 and 0 again");

        List<ModelInput> wide = List.of(in("x", ElementType.FLOAT32, "batch", 3));
        InputPlan widePlan = InputPlanner.plan("m.onnx", wide, InputOptions.NONE,
                spec("{\"inputs\": [{\"name\": \"x\", \"type\": \"float32\", \"shape\": [\"batch\", 3], \"values\": {\"npy\": \"rows.npy\"}}]}"));
        String message = widePlan.incompatibility(1, 0);
        assertTrue(message.contains("rows of " + npy + " have shape [2], but input 'x' takes rows of shape [3]"), message);

        List<ModelInput> ints = List.of(in("x", ElementType.INT64, "batch", 2));
        assertTrue(refusal(ints, InputOptions.NONE, spec("{\"inputs\": [{\"name\": \"x\", \"type\": \"int64\", \"shape\": "
                + "[\"batch\", 2], \"values\": {\"npy\": \"rows.npy\"}}]}")).contains("holds float32 values, not int64"));
    }
}
