import onnxProto from "onnx-proto";
import type { UseLiteFiles } from "./read-use-lite-files.js";

const { onnx } = onnxProto;

/**
 * USE-lite's tfjs graph, rebuilt as an ONNX graph over the same weights, so
 * that onnxruntime's native kernels can run it (on this machine's AVX-512,
 * 5× the texts per second of tfjs' WASM kernels on LoCoMo turns, 7.6× on
 * LongMemEval's long ones: src/bench/timings/use-lite-runtimes.ts).
 *
 * The tfjs graph (model.json, 317 nodes) is a two-layer "Kona" Transformer:
 * sparse token ids → embeddings (8,002 × 256) plus a sinusoidal timing signal
 * → layer 0 (pre-norm, 4 heads of 64, the residual widened 256 → 512 by a
 * dense layer, FFN 512 → 1536 → 512) → layer 1 (512 wide, 4 heads of 128) →
 * the mean over the text's tokens → tanh(dense 512) → L2 normalised. This
 * rebuild takes the ids as a padded [batch, tokens] matrix with a 0/1 mask
 * instead of the sparse pair, and where tfjs gathers the real tokens out and
 * scatters them back around each dense layer, it runs the dense layers on the
 * padding too: the padding never reaches a real token (its keys get a
 * −1e9 attention bias, the graph's own) nor the mean (masked), so the
 * vectors are the same. use-lite-embedder.test.ts compares them with tfjs'.
 *
 * Faithful to the tfjs graph where it is odd, too:
 * - the token embeddings enter twice: its `Layer_0/add` adds the scattered
 *   embeddings to the scattered (embeddings + timing signal);
 * - texts are cut to their first 128 tokens (its ClipToMaxLength), which the
 *   caller does before building the matrix.
 */
export const USE_LITE_MAX_TOKENS = 128;
/** The width of the graph's output, "embedding": [batch, 512]. */
export const USE_LITE_OUTPUT_WIDTH = 512;

const ROOT = "module_apply_default/Encoder_en/KonaTransformer/Encode/";
const layer = (i: number) => `${ROOT}Layer_${i}/TransformerLayer/`;
const stackLayer = (i: number) => `${ROOT}TransformerStack/Layer_${i}/TransformerLayer/`;
const kernel = (i: number) => `module/Encoder_en/KonaTransformer/Encode/Layer_${i}/TransformerLayer/`;

const FLOAT = 1;
const INT64 = 7;

export function buildUseLiteOnnx(files: Pick<UseLiteFiles, "weights">): Uint8Array {
  const nodes: onnxProto.onnx.INodeProto[] = [];
  const initializers: onnxProto.onnx.ITensorProto[] = [];
  let counter = 0;

  const weight = (name: string, shape?: number[]): string => {
    const w = files.weights.get(name);
    if (!w) throw new Error(`USE-lite weight ${name} is missing from model.json`);
    if (!(w.data instanceof Float32Array)) throw new Error(`USE-lite weight ${name} is not float32`);
    const dims = shape ?? [...w.shape];
    if (dims.reduce((a, b) => a * b, 1) !== w.data.length) throw new Error(`USE-lite weight ${name} has ${w.data.length} values, not ${dims.join(" × ")}`);
    initializers.push({ name, dims, dataType: FLOAT, rawData: new Uint8Array(w.data.buffer, w.data.byteOffset, w.data.byteLength) });
    return name;
  };
  const scalarOf = (name: string): number => {
    const w = files.weights.get(name);
    if (!w || w.data.length !== 1) throw new Error(`USE-lite constant ${name} is missing from model.json`);
    return w.data[0]!;
  };
  const float = (value: number): string => {
    const name = `float_${counter++}`;
    initializers.push({ name, dims: [], dataType: FLOAT, rawData: new Uint8Array(new Float32Array([value]).buffer) });
    return name;
  };
  const ints = (values: number[]): string => {
    const name = `ints_${counter++}`;
    initializers.push({ name, dims: [values.length], dataType: INT64, int64Data: values });
    return name;
  };
  const op = (opType: string, input: string[], attributes: Record<string, number | number[]> = {}, outputs = 1): string[] => {
    const output = Array.from({ length: outputs }, () => `${opType}_${counter++}`);
    const attribute = Object.entries(attributes).map(([name, value]) =>
      Array.isArray(value) ? { name, type: onnx.AttributeProto.AttributeType.INTS, ints: value } : { name, type: onnx.AttributeProto.AttributeType.INT, i: value },
    );
    nodes.push({ opType, input, output, attribute });
    return output;
  };
  const op1 = (opType: string, input: string[], attributes: Record<string, number | number[]> = {}): string => op(opType, input, attributes)[0]!;

  const epsilon = float(scalarOf(`${stackLayer(1)}FFN/layer_prepostprocess/layer_norm/Cast/x`));
  const layerNorm = (x: string, prefix: string): string => {
    const centred = op1("Sub", [x, op1("ReduceMean", [x, ints([-1])], { keepdims: 1 })]);
    const variance = op1("ReduceMean", [op1("Mul", [centred, centred]), ints([-1])], { keepdims: 1 });
    const normalised = op1("Div", [centred, op1("Sqrt", [op1("Add", [variance, epsilon])])]);
    return op1("Add", [op1("Mul", [normalised, weight(`${prefix}layer_norm/layer_norm_scale/ConcatPartitions/concat`)]), weight(`${prefix}layer_norm/layer_norm_bias/ConcatPartitions/concat`)]);
  };
  const dense = (x: string, kernelName: string, biasName: string, shape?: number[]): string => op1("Add", [op1("MatMul", [x, weight(kernelName, shape)]), weight(biasName)]);

  // Padding's attention bias, [batch, 1, 1, tokens]: 0 for a token, −1e9 for padding.
  const bias = op1("Unsqueeze", [op1("Mul", [op1("Sub", [float(1), "mask"]), float(scalarOf(`${stackLayer(1)}MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y`))]), ints([1, 2])]);
  const attention = (x: string, i: number, width: number, heads: number): string => {
    const qkv = dense(x, `${kernel(i)}MultiheadAttention/qkv_transform_single/kernel/part_0`, `${layer(i)}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`, [width, 3 * width]);
    const [q, k, v] = op("Split", [qkv, ints([width, width, width])], { axis: 2 }, 3) as [string, string, string];
    const splitHeads = (t: string) => op1("Transpose", [op1("Reshape", [t, ints([0, 0, heads, width / heads])])], { perm: [0, 2, 1, 3] });
    const scaled = op1("Mul", [splitHeads(q), float(scalarOf(`${stackLayer(i)}MultiheadAttention/mul/y`))]);
    const logits = op1("Add", [op1("MatMul", [scaled, op1("Transpose", [splitHeads(k)], { perm: [0, 1, 3, 2] })]), bias]);
    const mixed = op1("MatMul", [op1("Softmax", [logits], { axis: -1 }), splitHeads(v)]);
    const combined = op1("Reshape", [op1("Transpose", [mixed], { perm: [0, 2, 1, 3] }), ints([0, 0, width])]);
    return dense(combined, `${kernel(i)}MultiheadAttention/output_transform_single/kernel/part_0`, `${layer(i)}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`, [width, 512]);
  };
  const feedForward = (x: string, i: number): string => {
    const hidden = op1("Relu", [dense(layerNorm(x, `${layer(i)}FFN/layer_prepostprocess/`), `${stackLayer(i)}FFN/conv1/Tensordot/Reshape_1`, `${layer(i)}FFN/conv1/bias/ConcatPartitions/concat`)]);
    return op1("Add", [dense(hidden, `${stackLayer(i)}FFN/conv2/Tensordot/Reshape_1`, `${layer(i)}FFN/conv2/bias/ConcatPartitions/concat`), x]);
  };

  // Embeddings and the timing signal: sin and cos of position × 128 inverse timescales.
  const embedded = op1("Gather", [weight("module/Embeddings_en"), "ids"], { axis: 0 });
  const tokens = op1("Cast", [op1("Squeeze", [op1("Gather", [op1("Shape", ["ids"]), ints([1])], { axis: 0 }), ints([0])])], { to: FLOAT });
  const angles = op1("Mul", [op1("Unsqueeze", [op1("Range", [float(0), tokens, float(1)]), ints([1])]), weight(`${ROOT}TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`)]);
  const timing = op1("Concat", [op1("Sin", [angles]), op1("Cos", [angles])], { axis: 1 });
  let x = op1("Add", [embedded, op1("Add", [embedded, timing])]);

  // Layer 0: 256 wide in, 512 out; its residual goes through a dense layer to match.
  const residual = dense(x, `${layer(0)}dense/kernel/ConcatPartitions/concat`, `${layer(0)}dense/bias/ConcatPartitions/concat`);
  x = feedForward(op1("Add", [attention(layerNorm(x, `${layer(0)}layer_prepostprocess/`), 0, 256, 4), residual]), 0);
  // Layer 1: 512 wide.
  x = feedForward(op1("Add", [attention(layerNorm(x, `${layer(1)}layer_prepostprocess/`), 1, 512, 4), x]), 1);

  // The mean over the text's tokens, then tanh(dense) and L2.
  const summed = op1("ReduceSum", [op1("Mul", [x, op1("Unsqueeze", ["mask", ints([2])])]), ints([1])], { keepdims: 0 });
  const counted = op1("Max", [op1("ReduceSum", ["mask", ints([1])], { keepdims: 1 }), float(1)]);
  const pooled = op1("Tanh", [dense(op1("Div", [summed, counted]), "module/Encoder_en/hidden_layers/tanh_layer_0/weights", "module/Encoder_en/hidden_layers/tanh_layer_0/bias")]);
  const squared = op1("ReduceSum", [op1("Mul", [pooled, pooled]), ints([1])], { keepdims: 1 });
  const norm = op1("Sqrt", [op1("Max", [squared, float(scalarOf("module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y"))])]);
  nodes.push({ opType: "Div", input: [pooled, norm], output: ["embedding"] });

  const tensor = (name: string, elemType: number, dims: Array<number | string>): onnxProto.onnx.IValueInfoProto => ({
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) } } },
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: "ramem",
    // 18: ReduceMean takes its axes as an input from this opset on.
    opsetImport: [{ domain: "", version: 18 }],
    graph: {
      name: "use-lite",
      node: nodes,
      initializer: initializers,
      input: [tensor("ids", INT64, ["batch", "tokens"]), tensor("mask", FLOAT, ["batch", "tokens"])],
      output: [tensor("embedding", FLOAT, ["batch", USE_LITE_OUTPUT_WIDTH])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}
