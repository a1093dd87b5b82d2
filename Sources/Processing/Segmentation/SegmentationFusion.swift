/// Which nodes of a segmentation graph disappear into the F(4x4, 3x3) convolutions
/// (`sk_conv3x3_winograd4_fused`): a two-input channel concatenation read only by such
/// convolutions is read in place instead of copied; a 2x bilinear resize read only by such
/// concatenations is done on the fly by the convolution; and an `add` whose one input is such a
/// convolution's output, read by nothing else, becomes that convolution's epilogue. In u2netp
/// these are 44 of the 51 concatenations (one of 128 x 320 x 320 floats), 33 of the 38 resizes
/// and all 11 residual adds: whole passes over memory, and the arena shrinks from 114 to 61 MB
/// (with the sums written over their residuals, see `SegmentationNetwork`).
struct SegmentationFusion {
    /// Concatenation output -> its two inputs, for the concatenations read in place.
    private(set) var concatenations: [String: [String]] = [:]
    /// Resize output -> its input, for the 2x resizes done inside the convolutions.
    private(set) var upsampled: [String: String] = [:]
    /// Convolution node -> the add it absorbs (the add's index and its other input).
    private(set) var residuals: [Int: (add: Int, residual: String)] = [:]
    /// Nodes that run as part of another one.
    private(set) var absorbed: Set<Int> = []

    /// `inputs[i]`: node i's input names; `fusable(i)`: node i is a convolution run by F(4x4, 3x3).
    init(nodes: [SegmentationGraph.Node], inputs: [[String]], shapes: [String: (height: Int, width: Int)], graphOutput: String,
         fusable: (Int) -> Bool) {
        var readers: [String: [Int]] = [:]
        var producer: [String: Int] = [:]
        for (index, node) in nodes.enumerated() {
            producer[node.output] = index
            for name in inputs[index] { readers[name, default: []].append(index) }
        }
        for (index, node) in nodes.enumerated() where node.op == "concat" && inputs[index].count == 2 {
            guard node.output != graphOutput, let users = readers[node.output], users.allSatisfy(fusable) else { continue }
            concatenations[node.output] = inputs[index]
            absorbed.insert(index)
        }
        for (index, node) in nodes.enumerated() where node.op == "resize_bilinear" && inputs[index].count == 1 {
            guard let source = shapes[inputs[index][0]], let target = shapes[node.output],
                  target.height == 2 * source.height, target.width == 2 * source.width, node.output != graphOutput,
                  let users = readers[node.output], users.allSatisfy({ concatenations[nodes[$0].output] != nil })
            else { continue }
            upsampled[node.output] = inputs[index][0]
            absorbed.insert(index)
        }
        for (index, node) in nodes.enumerated() where node.op == "add" && inputs[index].count == 2 {
            let pair = inputs[index]
            for (own, other) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                // The residual must exist when the convolution runs (it is then read there).
                guard own != other, concatenations[other] == nil, let conv = producer[own], fusable(conv), residuals[conv] == nil,
                      readers[own] == [index], own != graphOutput,
                      producer[other].map({ $0 < conv }) ?? true
                else { continue }
                residuals[conv] = (index, other)
                absorbed.insert(index)
                break
            }
        }
    }

    /// The tensors node `index` takes as input once fused: concatenations replaced by their
    /// inputs, and 2x resizes by their sources (`upsampled`: resized on the fly).
    func sources(_ index: Int, inputs: [String]) -> [(name: String, upsampled: Bool)] {
        inputs.flatMap { concatenations[$0] ?? [$0] }.map { name in upsampled[name].map { ($0, true) } ?? (name, false) }
    }

    /// Every tensor node `index` reads once fused: its sources, then the residual of an absorbed add.
    func reads(_ index: Int, inputs: [String]) -> [String] {
        var names = sources(index, inputs: inputs).map(\.name)
        if let residual = residuals[index]?.residual { names.append(residual) }
        return names
    }
}
