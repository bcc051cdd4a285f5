package io.inferbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every workflow the docs show parses as YAML and is a workflow: jobs, each with steps or a container, and every
 * {@code mvn} it runs names only properties inferbench knows. A reader copies these files as they are.
 */
class DocsWorkflowTest {
    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern PROPERTY = Pattern.compile("-D((?:bench|compare)\\.[A-Za-z.]+)=");

    static List<String> blocks() throws IOException {
        List<String> blocks = new ArrayList<>();
        try (Stream<Path> docs = Files.list(Path.of("..", "docs"))) {
            for (Path doc : docs.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                Matcher m = YAML_BLOCK.matcher(Files.readString(doc));
                while (m.find()) {
                    blocks.add(doc.getFileName() + "\n" + m.group(1));
                }
            }
        }
        return blocks;
    }

    @Test
    void everyWorkflowInTheDocsParses() throws IOException {
        List<String> blocks = blocks();
        assertFalse(blocks.isEmpty(), "the docs show workflows");
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        for (String block : blocks) {
            String name = block.substring(0, block.indexOf('\n'));
            JsonNode root = yaml.readTree(block.substring(block.indexOf('\n') + 1));
            boolean workflow = root.has("jobs");
            boolean kubernetes = root.has("kind") && root.has("spec");
            assertTrue(workflow || kubernetes, name + ": a YAML block that is neither a workflow nor a Kubernetes object: " + root);
            if (workflow) {
                root.get("jobs").fields().forEachRemaining(job -> assertTrue(job.getValue().has("steps"),
                        name + ": job " + job.getKey() + " has no steps"));
            }
            Matcher property = PROPERTY.matcher(block);
            while (property.find()) {
                String p = property.group(1);
                assertTrue(PropertyNames.all().stream().anyMatch(s -> s.property().equals(p)),
                        name + ": -D" + p + " is not a property inferbench knows");
            }
            assertFalse(block.contains(" jq "), name + ": jq is not needed by any step");
        }
    }
}
