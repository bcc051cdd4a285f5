package io.inferbench.inputs;

import io.inferbench.BenchmarkException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A NumPy {@code .npy} file (format versions 1 to 3), read whole into memory: real input data, whose first axis is
 * the rows a batch takes in turn. C order only, little- or big-endian, of the types an input can have ({@code <f4},
 * {@code <f2}, {@code <i8}, {@code <i4}, {@code |b1}).
 */
public final class NpyArray {
    /** Larger files are refused: the rows are held in memory, beside the model. */
    static final long MAX_BYTES = 1L << 30;
    private static final Map<String, ElementType> TYPES = Map.of("f4", ElementType.FLOAT32, "f2", ElementType.FLOAT16,
            "i8", ElementType.INT64, "i4", ElementType.INT32, "b1", ElementType.BOOL);
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([<>|=])([a-z]\\d+)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    private final Path file;
    private final ElementType type;
    private final List<Long> shape;
    private final String sha256;
    private final ByteBuffer data;

    private NpyArray(Path file, ElementType type, List<Long> shape, String sha256, ByteBuffer data) {
        this.file = file;
        this.type = type;
        this.shape = List.copyOf(shape);
        this.sha256 = sha256;
        this.data = data;
    }

    public static NpyArray read(Path file, String input) {
        String where = "The .npy file " + file + " of input '" + input + "'";
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new BenchmarkException(where + " is over " + (MAX_BYTES >> 20) + " MiB; give fewer rows (a few "
                        + "hundred are enough to vary the inputs)");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BenchmarkException(where + " cannot be read (" + e.getMessage() + "). Give the path to a .npy "
                    + "file, relative to the spec file's folder", e);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
        if (bytes.length < 10 || !java.util.Arrays.equals(java.util.Arrays.copyOf(bytes, 6), magic)) {
            throw new BenchmarkException(where + " is not a .npy file (no \\x93NUMPY magic). Save it with numpy.save");
        }
        int major = bytes[6];
        int headerLength = major == 1 ? Short.toUnsignedInt(in.getShort(8)) : in.getInt(8);
        int headerStart = major == 1 ? 10 : 12;
        if (headerStart + headerLength > bytes.length) {
            throw new BenchmarkException(where + " is truncated: its header runs past the end of the file");
        }
        String header = new String(bytes, headerStart, headerLength, StandardCharsets.ISO_8859_1);
        Matcher descr = DESCR.matcher(header);
        Matcher fortran = FORTRAN.matcher(header);
        Matcher shapeText = SHAPE.matcher(header);
        if (!descr.find() || !fortran.find() || !shapeText.find()) {
            throw new BenchmarkException(where + " has a header this reader does not understand: " + header.trim());
        }
        ElementType type = TYPES.get(descr.group(2));
        if (type == null) {
            throw new BenchmarkException(where + " holds dtype '" + descr.group(1) + descr.group(2) + "'; the harness "
                    + "reads " + TYPES.keySet() + " (float32, float16, int64, int32, bool)");
        }
        if (fortran.group(1).equals("True")) {
            throw new BenchmarkException(where + " is in Fortran order; save it in C order (numpy.ascontiguousarray)");
        }
        List<Long> shape = new ArrayList<>();
        for (String part : shapeText.group(1).split(",")) {
            if (!part.isBlank()) {
                shape.add(Long.parseLong(part.trim()));
            }
        }
        long elements = shape.stream().mapToLong(Long::longValue).reduce(1, Math::multiplyExact);
        int dataStart = headerStart + headerLength;
        if (shape.isEmpty() || (long) bytes.length - dataStart != elements * type.bytes()) {
            throw new BenchmarkException(where + " holds " + (bytes.length - dataStart) + " bytes of data, but its header "
                    + "says shape " + shape + " of " + type + " (" + elements * type.bytes() + " bytes); it is corrupt or "
                    + "has no rows axis");
        }
        ByteOrder order = descr.group(1).equals(">") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        ByteBuffer data = ByteBuffer.wrap(bytes, dataStart, bytes.length - dataStart).slice().order(order);
        return new NpyArray(file, type, shape, sha256(bytes), data.asReadOnlyBuffer().order(order));
    }

    /** Hex SHA-256 of {@code bytes}: a data file's or a spec's identity in run.json. */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public Path file() {
        return file;
    }

    public ElementType type() {
        return type;
    }

    /** The file's shape: rows first. */
    public List<Long> shape() {
        return shape;
    }

    public long rows() {
        return shape.get(0);
    }

    /** The shape of one row: the file's shape without its first axis. */
    public List<Long> rowShape() {
        return shape.subList(1, shape.size());
    }

    public String sha256() {
        return sha256;
    }

    String shapeLabel() {
        return shape.toString().replace(" ", "");
    }

    /** Copies {@code count} rows from row {@code first} on (wrapping around) into {@code out}, in its byte order. */
    void copyRows(long first, int count, ByteBuffer out) {
        long rowElements = rowShape().stream().mapToLong(Long::longValue).reduce(1, Math::multiplyExact);
        for (int r = 0; r < count; r++) {
            long row = (first + r) % rows();
            int base = Math.toIntExact(row * rowElements * type.bytes());
            for (long e = 0; e < rowElements; e++) {
                int at = base + (int) e * type.bytes();
                switch (type) {
                    case FLOAT32 -> out.putFloat(data.getFloat(at));
                    case FLOAT16 -> out.putShort(data.getShort(at));
                    case INT64 -> out.putLong(data.getLong(at));
                    case INT32 -> out.putInt(data.getInt(at));
                    case BOOL -> out.put(data.get(at));
                }
            }
        }
    }
}
