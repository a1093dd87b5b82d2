#!/usr/bin/env python3
"""onnxruntime's map for the test scene: the reference the network tests compare ours with.

Builds the 320 x 320 scene of `U2NetPTests.scene()` (Tests/ProcessingTests/SegmentationNetworkTests.swift:
a warm disc on a cool gradient, no resizing involved), prepares it as rembg and
`SegmentationNetwork.preprocessed` do (divided by the largest channel value, ImageNet mean and
standard deviation, float32), runs MODEL.onnx on onnxruntime with one thread and prints the
mean of output 0's map and its values at the sampled flat indices (y * 320 + x), in the form the
tests keep them. --save FILE also writes the whole map (102,400 float32 little-endian), which
`U2NetTests` reads from $STICKER_U2NET_REFERENCE to print the largest difference.

usage: reference_map.py [--model PATH] [--save FILE]
needs: numpy, onnxruntime (the venv of export_u2netp_weights.py)
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse

import numpy as np
import onnxruntime as ort

# Spread over the disc, its edge and the background (the u2netp fingerprint's), then eight where
# u2net's map is between 0.05 and 0.95 (its edge, where a difference shows; u2net saturates elsewhere).
SAMPLES = [1605, 48170, 48260, 48262, 76970, 19300, 102399, 32300,
           19357, 22290, 30962, 42962, 56895, 67624, 74763, 76981]


def scene() -> np.ndarray:
    """[320, 320, 3] uint8, U2NetPTests.scene() pixel for pixel."""
    y, x = np.mgrid[0:320, 0:320]
    disc = (x - 170) ** 2 + (y - 150) ** 2 < 90 * 90
    inside = np.stack([200 + (x + y) % 40, 60 + x % 50, 40 + y % 30], axis=-1)
    outside = np.stack([30 + x // 8, 80 + y // 4, 150 + (x + y) // 10], axis=-1)
    return np.where(disc[..., None], inside, outside).astype(np.uint8)


def prepared(pixels: np.ndarray) -> np.ndarray:
    """[1, 3, 320, 320] float32 as SegmentationNetwork.preprocessed computes it (float32 steps)."""
    scale = np.float32(1) / np.float32(max(int(pixels.max()), 1))
    mean = np.array([0.485, 0.456, 0.406], dtype=np.float32)
    std = np.array([0.229, 0.224, 0.225], dtype=np.float32)
    planes = (pixels.astype(np.float32) * scale - mean) / std
    return np.ascontiguousarray(planes.transpose(2, 0, 1)[None], dtype=np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="/work/u2net/rembg/u2net.onnx")
    parser.add_argument("--save")
    args = parser.parse_args()
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(args.model, options, providers=["CPUExecutionProvider"])
    x = prepared(scene())
    out = session.run(None, {session.get_inputs()[0].name: x})[0]
    flat = out.reshape(-1)[: 320 * 320].astype(np.float32)
    print(f"onnxruntime {ort.__version__}, {os.path.basename(args.model)}")
    print(f"static let mean: Float = {flat.mean(dtype=np.float64):.8g}")
    print("static let samples: [(Int, Float)] = [")
    print("    " + ", ".join(f"({i}, {flat[i]:.8g})" for i in SAMPLES) + ",")
    print("]")
    if args.save:
        flat.astype("<f4").tofile(args.save)
        print(f"map written to {args.save}")


if __name__ == "__main__":
    main()
