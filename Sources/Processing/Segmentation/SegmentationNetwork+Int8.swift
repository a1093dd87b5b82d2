import CSegmentationKernels

extension SegmentationNetwork {
    /// Runs a step that runs in int8 on `path` (an `SK_Q8_*` path): the input (its fused
    /// concatenation and 2x resizes) quantized once on this thread into `scratch`, at a scale
    /// measured on it (one for each part of a concatenation: their ranges differ, and one scale
    /// for both cost u2netp's masks a third of their agreement with float32 on composites); then the output rows, shared with a spare core when `spare` lends one.
    /// Every path and every split gives the same floats.
    static func convolveInt8(_ conv: Convolution, at: (Tensor) -> UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
                             weights: UnsafePointer<Float>, quantized: UnsafePointer<Int8>, path: Int32,
                             spare: SpareCores?) -> Int32 {
        guard let offset = conv.quantized, let weightScales = conv.weightScales else { return -1 }
        let h = Int32(conv.output.height), w = Int32(conv.output.width), d = Int32(conv.dilation)
        let quads = UnsafeMutableRawPointer(scratch).assumingMemoryBound(to: UInt8.self)
        var scales: [Float] = [0, 0]
        let status = sk_q8_input(
            at(conv.input), Int32(conv.input.channels), conv.inputUpsampled ? 1 : 0,
            conv.second.map { UnsafePointer(at($0)) }, Int32(conv.second?.channels ?? 0), conv.secondUpsampled ? 1 : 0,
            h, w, d, &scales, quads)
        guard status == 0 else { return status }
        let split = sk_q8_split(Int32(conv.input.channels), Int32(conv.second?.channels ?? 0))
        let residual = conv.residual.map { UnsafePointer(at($0)) }
        let out = at(conv.output)
        let rows = { (rows: Range<Int>) -> Int32 in
            sk_q8_conv_rows(path, quads, Int32(conv.inputChannels), split, h, w, d, scales, quantized + offset, weights + weightScales,
                            weights + conv.bias, Int32(conv.output.channels), conv.relu ? 1 : 0, residual,
                            Int32(rows.lowerBound), Int32(rows.upperBound), out)
        }
        let multiplyAdds = conv.output.count * conv.inputChannels * 9
        if multiplyAdds >= smallestSharedConvolution, conv.output.height > 1, let spare, spare.borrow() {
            defer { spare.giveBack() }
            return shared(pieces: pieces(of: 0..<conv.output.height)) { piece, _ in rows(piece) }
        }
        return rows(0..<conv.output.height)
    }
}
