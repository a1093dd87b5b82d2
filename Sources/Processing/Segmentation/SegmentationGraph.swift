import Foundation

/// The on-disk graph format written by `Benchmarks/cutout/export_u2netp_weights.py`
/// ("sticker-nn-graph" version 1): static shapes, batch norms folded, ReLU fused into convs.
/// Only what the runtime reads is decoded; unknown keys are ignored.
struct SegmentationGraph: Decodable {
    struct Weights: Decodable {
        let bytes: Int
        let dtype: String
    }

    struct Input: Decodable {
        let name: String
        let shape: [Int]
    }

    struct Output: Decodable {
        let name: String
        let shape: [Int]
    }

    struct Parameter: Decodable {
        /// Byte offset into the weights file.
        let offset: Int
        let shape: [Int]
        let count: Int
    }

    struct Node: Decodable {
        let op: String
        let input: String?
        let inputs: [String]?
        let output: String
        let weight: String?
        let bias: String?
        let kernel: [Int]?
        let stride: [Int]?
        let pad: [Int]?
        let dilation: [Int]?
        let group: Int?
        let activation: String?
        let ceilMode: Bool?
        let size: [Int]?
        let coordinateMode: String?
        let axis: Int?

        enum CodingKeys: String, CodingKey {
            case op, input, inputs, output, weight, bias, kernel, stride, pad, dilation, group, activation
            case ceilMode = "ceil_mode"
            case size
            case coordinateMode = "coordinate_mode"
            case axis
        }
    }

    let format: String
    let version: Int
    let weights: Weights
    let input: Input
    let outputs: [Output]
    let tensors: [String: [Int]]
    let params: [String: Parameter]
    let nodes: [Node]
}
