import CSegmentationKernels
import Foundation

/// The network's parameters as its steps read them, made from the weights file at load.
///
/// u2net's file is 176 MB of float32. Only what a step reads is kept, each in the form it reads:
/// every bias and the weights of directly run convolutions as float32 (`floats`); the weights of
/// the F(4x4, 3x3) convolutions on large planes transformed once (`packed`, 4x their size); those
/// of the F(4x4, 3x3) convolutions on planes of few tiles in half precision (`compact`, half their
/// size), transformed at every call. The file itself is mapped, read once and unmapped, so its
/// pages do not stay in the process (reading it into an array cost 176 MB more at load, and a
/// float-by-float conversion ~0.1 s).
extension SegmentationNetwork {
    struct Weights: Sendable {
        var floats: [Float] = []
        /// `packedStart`: the first float on a 64-byte boundary (a cache line; the products run 10%
        /// slower on misaligned panels). Should the array ever move, the data moves with it: only
        /// the alignment could be lost.
        var packed: [Float] = []
        var packedStart = 0
        var compact: [UInt16] = []
        /// The int8 convolutions' weights (`sk_q8_pack`); their scales are in `floats`.
        var quantized: [Int8] = []

        /// Bytes kept, for messages and benchmarks.
        var bytes: Int { floats.count * 4 + packed.count * 4 + compact.count * 2 + quantized.count }

        /// Fills the weights `steps` read from `file` (the weights file, its offsets checked by the
        /// loader) and points the steps at them: on entry a convolution's `weight` and `bias` are
        /// float offsets into the file, `packed` or `compact` set (to any value) say how it runs;
        /// `keepsDirectWeights` keeps the float32 weights of every convolution (tests that run
        /// Winograd layers directly).
        init(steps: inout [Step], file: UnsafeRawBufferPointer, keepsDirectWeights: Bool) throws(ProcessingError) {
            let source = file.bindMemory(to: Float.self)  // 4-byte aligned: the mapping is page-aligned, offsets checked
            var floatCount = 0, packedCount = 0, compactCount = 0, quantizedCount = 0
            for case let .conv(conv) in steps {
                floatCount += conv.output.channels
                if conv.method == .direct || keepsDirectWeights { floatCount += conv.output.channels * conv.inputChannels * conv.kernel * conv.kernel }
                if conv.method == .packed { packedCount += sk_winograd4_packed_count(Int32(conv.inputChannels), Int32(conv.output.channels)) }
                if conv.method == .compact { compactCount += sk_winograd4c_weight_count(Int32(conv.inputChannels), Int32(conv.output.channels)) }
                if conv.method == .int8 {
                    quantizedCount += sk_q8_packed_bytes(Int32(conv.inputChannels), Int32(conv.output.channels))
                    floatCount += conv.output.channels
                }
            }
            floats.reserveCapacity(floatCount)
            packed = [Float](repeating: 0, count: packedCount + 16)
            packedStart = packed.withUnsafeBufferPointer { (16 - Int(UInt(bitPattern: $0.baseAddress) / 4 % 16)) % 16 }
            compact = [UInt16](repeating: 0, count: compactCount)
            quantized = [Int8](repeating: 0, count: quantizedCount)
            packedCount = 0
            compactCount = 0
            quantizedCount = 0
            func append(_ offset: Int, _ count: Int) -> Int {
                let start = floats.count
                #if _endian(little)
                floats.append(contentsOf: UnsafeBufferPointer(rebasing: source[offset..<offset + count]))
                #else
                floats.append(contentsOf: source[offset..<offset + count].map { Float(bitPattern: UInt32(littleEndian: $0.bitPattern)) })
                #endif
                return start
            }
            for index in steps.indices {
                guard case var .conv(conv) = steps[index], let fileWeight = conv.weight else { continue }
                let c = Int32(conv.inputChannels), o = Int32(conv.output.channels)
                let weightCount = conv.output.channels * conv.inputChannels * conv.kernel * conv.kernel
                conv.bias = append(conv.bias, conv.output.channels)
                let status: Int32
                switch conv.method {
                case .direct:
                    status = 0
                case .packed:
                    conv.packed = packedCount
                    status = packed.withUnsafeMutableBufferPointer { p in
                        sk_winograd4_pack(source.baseAddress! + fileWeight, c, o, p.baseAddress! + packedStart + packedCount)
                    }
                    packedCount += sk_winograd4_packed_count(c, o)
                case .compact:
                    conv.compact = compactCount
                    status = compact.withUnsafeMutableBufferPointer { p in
                        sk_winograd4c_pack(source.baseAddress! + fileWeight, c, o, p.baseAddress! + compactCount)
                    }
                    compactCount += sk_winograd4c_weight_count(c, o)
                case .int8:
                    conv.quantized = quantizedCount
                    conv.weightScales = floats.count
                    floats.append(contentsOf: repeatElement(0, count: conv.output.channels))
                    let scales = conv.weightScales ?? 0
                    status = quantized.withUnsafeMutableBufferPointer { q in
                        floats.withUnsafeMutableBufferPointer { f in
                            sk_q8_pack(source.baseAddress! + fileWeight, c, o, q.baseAddress! + quantizedCount, f.baseAddress! + scales)
                        }
                    }
                    quantizedCount += sk_q8_packed_bytes(c, o)
                }
                guard status == 0 else { throw .invalidModel("convolution weights could not be transformed") }
                conv.weight = conv.method == .direct || keepsDirectWeights ? append(fileWeight, weightCount) : nil
                steps[index] = .conv(conv)
            }
        }
    }

    /// Runs `body` on the file at `url` mapped read-only (an empty buffer for an empty file), and
    /// unmaps it after: its pages leave the process then (they stay in the page cache, shared).
    static func withMappedFile<Result>(
        _ url: URL, _ body: (UnsafeRawBufferPointer) throws(ProcessingError) -> Result
    ) throws(ProcessingError) -> Result {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .invalidModel("\(url.lastPathComponent): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .invalidModel("\(url.lastPathComponent): \(String(cString: strerror(errno)))") }
        let size = Int(status.st_size)
        guard size > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw .invalidModel("\(url.lastPathComponent): \(String(cString: strerror(errno)))")
        }
        defer { munmap(address, size) }
        // Read front to back once: ask for read-ahead.
        _ = madvise(address, size, MADV_SEQUENTIAL)
        return try body(UnsafeRawBufferPointer(start: address, count: size))
    }
}
