package ${package};

import io.inferbench.api.Call;
import io.inferbench.api.Shape;
import io.inferbench.api.Stages;
import io.inferbench.api.TargetContext;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The target answers before it is timed: one embedding per row, of the model's width, the same for the same inputs. */
class MiniLmEmbedderTest {
    /** What the harness gives a target, here by hand: one thread, the CPU, no model file, no settings. */
    private static final TargetContext CONTEXT = new TargetContext() {
        @Override
        public Path modelPath() {
            return null;
        }

        @Override
        public String device() {
            return "cpu";
        }

        @Override
        public int threads() {
            return 1;
        }

        @Override
        public long seed() {
            return 42;
        }

        @Override
        public String property(String name, String defaultValue) {
            return defaultValue;
        }

        @Override
        public Stages stages() {
            return name -> () -> {
            };
        }
    };

    @Test
    void oneEmbeddingPerRowOfTheModelsWidth() throws Exception {
        try (MiniLmEmbedder target = new MiniLmEmbedder()) {
            target.open(CONTEXT);
            Call call = target.prepare(new Shape(2, 16, List.of(), 42));
            float[][] first = (float[][]) call.run();
            assertEquals(2, first.length);
            assertEquals(384, first[0].length, "all-MiniLM-L6-v2 embeds in 384 dimensions");
            for (float v : first[0]) {
                assertTrue(Float.isFinite(v));
            }
            assertNotEquals(first[0][0], first[1][0], "two rows of different ids embed differently");
            assertArrayEquals(first[0], ((float[][]) call.run())[0], 1e-5f, "the same call gives the same answer");
        }
    }
}
