package io.inferbench;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The modules' arrows, read from the poms the build uses: the API needs nothing but the JDK, the core needs only the
 * API, an engine only the core, and the reactor lists each module after every module it depends on. A dependency
 * added the wrong way (the core on an engine, an engine on another, the API on anything) fails here, not in a user's
 * build when their project pulls a jar it never asked for.
 */
class ModulesTest {
    private static final Path ROOT = TestPaths.ROOT;

    /** Each module and the inferbench modules it may depend on directly. */
    private static final Map<String, Set<String>> MAY_DEPEND_ON = Map.of(
            "inferbench-api", Set.of(),
            "inferbench-core", Set.of("inferbench-api"),
            "inferbench-test-support", Set.of("inferbench-core"),
            "inferbench-engine-onnxruntime", Set.of("inferbench-core", "inferbench-test-support"),
            "inferbench-engine-djl", Set.of("inferbench-core", "inferbench-test-support"),
            "inferbench-maven-plugin", Set.of("inferbench-core", "inferbench-engine-onnxruntime", "inferbench-engine-djl"),
            "inferbench-archetype", Set.of(),
            "inferbench-benchmarks", Set.of("inferbench-core", "inferbench-engine-onnxruntime", "inferbench-engine-djl",
                    "inferbench-test-support"));

    @Test
    void everyModuleDependsOnlyOnTheModulesBelowIt() throws Exception {
        Map<String, List<String>> dependencies = modules();
        assertEquals(MAY_DEPEND_ON.keySet(), dependencies.keySet(), "every module has its place in the drawing");
        List<String> wrong = new ArrayList<>();
        List<String> built = new ArrayList<>();
        for (Map.Entry<String, List<String>> module : dependencies.entrySet()) {
            for (String dependency : module.getValue()) {
                if (dependency.startsWith("inferbench-") && !MAY_DEPEND_ON.get(module.getKey()).contains(dependency)) {
                    wrong.add(module.getKey() + " depends on " + dependency);
                }
                if (dependency.startsWith("inferbench-") && !built.contains(dependency)) {
                    wrong.add(module.getKey() + " is listed in the root pom before " + dependency + ", which it depends on");
                }
            }
            built.add(module.getKey());
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theApiNeedsOnlyTheJdk() throws Exception {
        assertEquals(List.of(), modules().get("inferbench-api"), "what a user's code compiles against brings no jar with it");
    }

    @Test
    void noEngineLibraryIsADependencyOfTheCore() throws Exception {
        for (String dependency : modules().get("inferbench-core")) {
            assertTrue(!dependency.startsWith("onnxruntime") && !dependency.startsWith("pytorch") && !dependency.equals("api"),
                    "inferbench-core depends on " + dependency + ", an engine's library: it belongs in the engine's module");
        }
    }

    /**
     * The core names no engine, in code, messages or Javadoc: each engine module's name (its artifactId's tail, which is
     * also the name it registers) and the libraries the engines wrap. What is about one engine belongs in its module;
     * what the core says of engines in general says "an engine".
     */
    @Test
    void noEngineIsNamedInTheCore() throws Exception {
        List<String> names = new ArrayList<>(List.of("ONNX Runtime", "PyTorch", "ORT", "libtorch"));
        modules().keySet().stream().filter(m -> m.startsWith("inferbench-engine-"))
                .forEach(m -> names.add(m.substring("inferbench-engine-".length())));
        assertTrue(names.contains("onnxruntime") && names.contains("djl"), "both engine modules found: " + names);
        Pattern named = Pattern.compile("(?i)(?<![\\w.])(" + String.join("|", names.stream().map(Pattern::quote).toList())
                + ")(?!\\w)");
        List<String> found = new ArrayList<>();
        Path core = ROOT.resolve("benchmarks/core/src/main");
        try (Stream<Path> files = Files.walk(core)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = named.matcher(lines.get(i));
                    if (m.find()) {
                        found.add(core.relativize(file) + ":" + (i + 1) + " names " + m.group(1));
                    }
                }
            }
        }
        assertEquals(List.of(), found, "inferbench-core must not name an engine: move the code to the engine's module "
                + "(EngineProvider, InferenceEngine), or say \"an engine\"");
    }

    /** The reactor's modules in the root pom's order, each with the artifactIds of its declared dependencies. */
    private static Map<String, List<String>> modules() throws Exception {
        Map<String, List<String>> modules = new LinkedHashMap<>();
        for (Element module : children(parse(ROOT.resolve("pom.xml")).getDocumentElement(), "modules", "module")) {
            Element pom = parse(ROOT.resolve(module.getTextContent().trim()).resolve("pom.xml")).getDocumentElement();
            List<String> dependencies = new ArrayList<>();
            for (Element dependency : children(pom, "dependencies", "dependency")) {
                String scope = text(dependency, "scope");
                if (!"test".equals(scope)) {
                    dependencies.add(text(dependency, "artifactId"));
                }
            }
            modules.put(text(pom, "artifactId"), dependencies);
        }
        return modules;
    }

    private static Document parse(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    /** The {@code <item>} elements of {@code parent}'s direct child {@code <list>}, never a nested one (a plugin's). */
    private static List<Element> children(Element parent, String list, String item) {
        List<Element> found = new ArrayList<>();
        for (Element listElement : direct(parent, list)) {
            found.addAll(direct(listElement, item));
        }
        return found;
    }

    private static List<Element> direct(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i).getNodeType() == Node.ELEMENT_NODE && nodes.item(i).getNodeName().equals(name)) {
                found.add((Element) nodes.item(i));
            }
        }
        return found;
    }

    private static String text(Element parent, String name) {
        List<Element> found = direct(parent, name);
        return found.isEmpty() ? null : found.get(0).getTextContent().trim();
    }
}
