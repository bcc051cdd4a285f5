package io.inferbench.model;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.OperatorSetIdProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import com.google.protobuf.ByteString;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Thin helper over the ONNX protobuf builders (from {@code tribuo-util-onnx}): names nodes, adds initialisers
 * and typed inputs/outputs. The protobuf encoding itself is the library's.
 *
 * <p>Float initialisers are stored as little-endian {@code raw_data}, as the ONNX spec requires.
 * Dimensions given as {@link String} become symbolic ({@code dim_param}); {@link Number}s are fixed.
 */
public final class OnnxGraphBuilder {
    /** Opset 17: the first with LayerNormalization; ReduceMean still takes {@code axes} as an attribute. */
    public static final int OPSET = 17;
    /** IR version 8 pairs with opset 17. */
    public static final int IR_VERSION = 8;

    private final GraphProto.Builder graph;
    private final String prefix;
    private int nextId;

    public OnnxGraphBuilder(String graphName) {
        this(graphName, "");
    }

    /** A graph whose generated names start with {@code prefix}: a branch's, so that they never shadow its parent's. */
    public OnnxGraphBuilder(String graphName, String prefix) {
        this.graph = GraphProto.newBuilder().setName(graphName);
        this.prefix = prefix;
    }

    public OnnxGraphBuilder input(String name, TensorProto.DataType type, Object... dims) {
        graph.addInput(valueInfo(name, type, dims));
        return this;
    }

    public OnnxGraphBuilder output(String name, TensorProto.DataType type, Object... dims) {
        graph.addOutput(valueInfo(name, type, dims));
        return this;
    }

    public String floatInitializer(String name, float[] values, long... dims) {
        checkCount(name, values.length, dims);
        ByteBuffer bytes = ByteBuffer.allocate(values.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(values);
        graph.addInitializer(TensorProto.newBuilder()
                .setName(name)
                .setDataType(TensorProto.DataType.FLOAT.getNumber())
                .addAllDims(Arrays.stream(dims).boxed().toList())
                .setRawData(ByteString.copyFrom(bytes.array())));
        return name;
    }

    /** A float16 initializer from float values, each rounded to the nearest half ({@link Float16}); no dims: a scalar. */
    public String float16Initializer(String name, float[] values, long... dims) {
        checkCount(name, values.length, dims);
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            bytes.putShort(Float16.fromFloat(v));
        }
        graph.addInitializer(TensorProto.newBuilder()
                .setName(name)
                .setDataType(TensorProto.DataType.FLOAT16.getNumber())
                .addAllDims(Arrays.stream(dims).boxed().toList())
                .setRawData(ByteString.copyFrom(bytes.array())));
        return name;
    }

    /** An int8 initializer; no dims: a scalar. */
    public String int8Initializer(String name, byte[] values, long... dims) {
        return byteInitializer(name, TensorProto.DataType.INT8, values, dims);
    }

    /** A uint8 initializer (quantized activations); no dims: a scalar. */
    public String uint8Initializer(String name, byte[] values, long... dims) {
        return byteInitializer(name, TensorProto.DataType.UINT8, values, dims);
    }

    private String byteInitializer(String name, TensorProto.DataType type, byte[] values, long... dims) {
        checkCount(name, values.length, dims);
        graph.addInitializer(TensorProto.newBuilder()
                .setName(name)
                .setDataType(type.getNumber())
                .addAllDims(Arrays.stream(dims).boxed().toList())
                .setRawData(ByteString.copyFrom(values)));
        return name;
    }

    private static void checkCount(String name, int values, long... dims) {
        long expected = Arrays.stream(dims).reduce(1, (a, b) -> a * b);
        if (expected != values) {
            throw new IllegalArgumentException(name + ": " + values + " values for dims " + Arrays.toString(dims));
        }
    }

    public String floatScalar(String name, float value) {
        graph.addInitializer(TensorProto.newBuilder()
                .setName(name)
                .setDataType(TensorProto.DataType.FLOAT.getNumber())
                .addFloatData(value));
        return name;
    }

    /** An int64 scalar (no dims): what {@code Range}'s inputs and a scalar {@code Gather} index must be. */
    public String int64Scalar(String name, long value) {
        graph.addInitializer(TensorProto.newBuilder()
                .setName(name)
                .setDataType(TensorProto.DataType.INT64.getNumber())
                .addInt64Data(value));
        return name;
    }

    public String int64Initializer(String name, long... values) {
        graph.addInitializer(TensorProto.newBuilder()
                .setName(name)
                .setDataType(TensorProto.DataType.INT64.getNumber())
                .addDims(values.length)
                .addAllInt64Data(Arrays.stream(values).boxed().toList()));
        return name;
    }

    /** Adds a node with one output, named after the op; returns that output's name. */
    public String node(String opType, String[] inputs, AttributeProto... attributes) {
        String output = prefix + opType.toLowerCase(java.util.Locale.ROOT) + "_" + (nextId++);
        nodeWithOutput(opType, inputs, output, attributes);
        return output;
    }

    /** Adds a node with {@code outputs} outputs; returns their names, in order. */
    public String[] nodeWithOutputs(String opType, String[] inputs, int outputs, AttributeProto... attributes) {
        String base = prefix + opType.toLowerCase(java.util.Locale.ROOT) + "_" + (nextId++);
        String[] names = new String[outputs];
        for (int i = 0; i < outputs; i++) {
            names[i] = base + "_" + i;
        }
        graph.addNode(NodeProto.newBuilder()
                .setOpType(opType)
                .setName(base + "_node")
                .addAllInput(Arrays.asList(inputs))
                .addAllOutput(Arrays.asList(names))
                .addAllAttribute(Arrays.asList(attributes)));
        return names;
    }

    public String node(String opType, String... inputs) {
        return node(opType, inputs, new AttributeProto[0]);
    }

    public void nodeWithOutput(String opType, String[] inputs, String output, AttributeProto... attributes) {
        graph.addNode(NodeProto.newBuilder()
                .setOpType(opType)
                .setName(output + "_node")
                .addAllInput(Arrays.asList(inputs))
                .addOutput(output)
                .addAllAttribute(Arrays.asList(attributes)));
    }

    public static AttributeProto intsAttribute(String name, long... values) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INTS)
                .addAllInts(Arrays.stream(values).boxed().toList()).build();
    }

    public static AttributeProto intAttribute(String name, long value) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INT).setI(value).build();
    }

    public static AttributeProto floatAttribute(String name, float value) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.FLOAT).setF(value).build();
    }

    /**
     * Adds an {@code If} node on the bool {@code condition}, whose branches are graphs made by other builders (their
     * outputs, in order, become the node's {@code outputs}); a branch may read any name of this graph.
     */
    public void ifNode(String condition, OnnxGraphBuilder thenBranch, OnnxGraphBuilder elseBranch, String... outputs) {
        graph.addNode(NodeProto.newBuilder()
                .setOpType("If")
                .setName(outputs[0] + "_if")
                .addInput(condition)
                .addAllOutput(Arrays.asList(outputs))
                .addAttribute(AttributeProto.newBuilder().setName("then_branch").setType(AttributeProto.AttributeType.GRAPH)
                        .setG(thenBranch.graph))
                .addAttribute(AttributeProto.newBuilder().setName("else_branch").setType(AttributeProto.AttributeType.GRAPH)
                        .setG(elseBranch.graph)));
    }

    public ModelProto build(String producerVersion, String docString) {
        return ModelProto.newBuilder()
                .setIrVersion(IR_VERSION)
                .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(OPSET))
                .setProducerName("inferbench")
                .setProducerVersion(producerVersion)
                .setDocString(docString)
                .setGraph(graph)
                .build();
    }

    private static ValueInfoProto valueInfo(String name, TensorProto.DataType type, Object... dims) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        for (Object dim : dims) {
            TensorShapeProto.Dimension.Builder d = TensorShapeProto.Dimension.newBuilder();
            if (dim instanceof String symbol) {
                d.setDimParam(symbol);
            } else if (dim instanceof Number size) {
                d.setDimValue(size.longValue());
            } else {
                throw new IllegalArgumentException("dimension must be a String (symbolic) or a Number: " + dim);
            }
            shape.addDim(d);
        }
        return ValueInfoProto.newBuilder()
                .setName(name)
                .setType(TypeProto.newBuilder().setTensorType(TypeProto.Tensor.newBuilder()
                        .setElemType(type.getNumber())
                        .setShape(shape)))
                .build();
    }
}
