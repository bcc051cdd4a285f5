package io.inferbench.model;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** What an ONNX graph's weights weigh, read from the graph itself. */
public final class OnnxWeights {
    private OnnxWeights() {
    }

    /**
     * The bytes a pass of the graph in {@code file} reads of its weights at least: every initializer's elements (from
     * its dims) times its element's size, whether its data is inside the file or external, less the tables that only
     * {@code Gather} reads (embeddings: a pass reads the rows of its tokens, not the table). 0 when the file cannot be
     * read as a graph (it is then not counted, and says so where it is used).
     */
    public static long initializerBytes(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            GraphProto graph = ModelProto.parseFrom(in).getGraph();
            Map<String, Set<String>> consumers = new HashMap<>();
            consumers(graph, consumers);
            long bytes = 0;
            for (TensorProto t : graph.getInitializerList()) {
                if (Set.of("Gather").equals(consumers.get(t.getName()))) {
                    continue;
                }
                long elements = 1;
                for (long d : t.getDimsList()) {
                    elements *= d;
                }
                TensorProto.DataType type = TensorProto.DataType.forNumber(t.getDataType());
                int size = type == null ? 0 : switch (type) {
                    case FLOAT, INT32, UINT32 -> 4;
                    case FLOAT16, BFLOAT16, INT16, UINT16 -> 2;
                    case INT8, UINT8, BOOL -> 1;
                    case DOUBLE, INT64, UINT64 -> 8;
                    default -> 0;
                };
                bytes += elements * size;
            }
            return bytes;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The op types that read each name, in the graph and its branches' and bodies' graphs. */
    private static void consumers(GraphProto graph, Map<String, Set<String>> consumers) {
        for (NodeProto node : graph.getNodeList()) {
            for (String input : node.getInputList()) {
                consumers.computeIfAbsent(input, k -> new HashSet<>()).add(node.getOpType());
            }
            for (AttributeProto a : node.getAttributeList()) {
                if (a.hasG()) {
                    consumers(a.getG(), consumers);
                }
                a.getGraphsList().forEach(g -> consumers(g, consumers));
            }
        }
    }
}
