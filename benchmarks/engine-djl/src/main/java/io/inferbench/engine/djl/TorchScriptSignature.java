package io.inferbench.engine.djl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads the argument names of a TorchScript module's {@code forward} from the saved archive itself, since
 * libtorch's JNI in DJL does not expose the method schema.
 *
 * <p>{@code torch.jit.save} writes a zip whose {@code <name>/data.pkl} opens with a pickle GLOBAL opcode naming the
 * root module's class ({@code c__torch__\nTinyClassifier\n}), and whose {@code <name>/code/} folder holds that class's
 * TorchScript source, e.g. {@code code/__torch__.py} with {@code def forward(self: ..., input_ids: Tensor, ...)}.
 * Both scripted and traced modules are saved this way.
 */
final class TorchScriptSignature {
    private TorchScriptSignature() {
    }

    /** The forward's argument names without {@code self}; empty if the archive does not have the expected layout. */
    static List<String> forwardArguments(Path file) {
        try (ZipFile zip = new ZipFile(file.toFile())) {
            ZipEntry data = null;
            for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                ZipEntry entry = e.nextElement();
                if (entry.getName().endsWith("data.pkl") && (data == null || entry.getName().length() < data.getName().length())) {
                    data = entry;
                }
            }
            if (data == null) {
                return List.of();
            }
            String prefix = data.getName().substring(0, data.getName().length() - "data.pkl".length());
            String[] rootClass = rootClass(read(zip, data));
            if (rootClass == null) {
                return List.of();
            }
            ZipEntry code = zip.getEntry(prefix + "code/" + rootClass[0].replace('.', '/') + ".py");
            if (code == null) {
                return List.of();
            }
            return parseForward(new String(read(zip, code), StandardCharsets.UTF_8), rootClass[1]);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    private static byte[] read(ZipFile zip, ZipEntry entry) throws IOException {
        try (InputStream in = zip.getInputStream(entry)) {
            return in.readNBytes(4 * 1024 * 1024);
        }
    }

    /** Module and class of the first GLOBAL opcode ('c' module '\n' name '\n') in the pickle. */
    static String[] rootClass(byte[] pickle) {
        String text = new String(pickle, 0, Math.min(pickle.length, 4096), StandardCharsets.ISO_8859_1);
        int start = text.indexOf("c__torch__");
        if (start < 0) {
            return null;
        }
        int moduleEnd = text.indexOf('\n', start);
        int classEnd = moduleEnd < 0 ? -1 : text.indexOf('\n', moduleEnd + 1);
        if (classEnd < 0) {
            return null;
        }
        return new String[] {text.substring(start + 1, moduleEnd), text.substring(moduleEnd + 1, classEnd)};
    }

    /** The parameter names of {@code forward} in {@code class <className>(...)}, skipping {@code self}. */
    static List<String> parseForward(String source, String className) {
        int classAt = source.indexOf("class " + className + "(");
        if (classAt < 0) {
            return List.of();
        }
        int defAt = source.indexOf("def forward(", classAt);
        if (defAt < 0) {
            return List.of();
        }
        int i = defAt + "def forward(".length();
        int depth = 0;
        StringBuilder current = new StringBuilder();
        List<String> parameters = new ArrayList<>();
        for (; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == ')' && depth == 0) {
                break;
            }
            if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                depth--;
            }
            if (c == ',' && depth == 0) {
                parameters.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        if (!current.toString().isBlank()) {
            parameters.add(current.toString());
        }
        List<String> names = new ArrayList<>();
        for (String parameter : parameters) {
            String name = parameter.split(":", 2)[0].split("=", 2)[0].trim();
            if (!name.isEmpty() && !name.equals("self")) {
                names.add(name);
            }
        }
        return names;
    }
}
