import CSegmentationKernels

/// The arithmetic the segmentation network's 3x3 convolutions run in (`cutout.precision`,
/// `--precision`), part of what makes a sticker: float32, the reference, or int8 (activations
/// quantized to bytes per tensor, weights per output channel, sums in int32; `int8_conv.h`), which
/// gives the same bytes on every instruction set.
public enum InferencePrecision: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case fp32
    case int8

    /// What stickers recorded before precision was a setting were made with.
    public static let legacy = InferencePrecision.fp32

    /// What `auto` runs: float32 on every CPU for now. int8 is not yet within the quality bar a
    /// default must meet (mask IoU >= 0.99 against float32 on composites of real objects over real
    /// photos: u2net 0.97, u2netp 0.72, Benchmarks/README.md "Int8 convolutions"), so it is there to
    /// name, not chosen for anyone. A CPU with int8 dot products (AVX-512 VNNI, AVX-VNNI) is where
    /// `auto` will pick int8 once it is.
    public static var automatic: InferencePrecision { .fp32 }

    /// One line for help and `config list`.
    public var summary: String {
        switch self {
        case .fp32: "32-bit floats, the reference"
        case .int8: "8-bit integers: faster where the CPU has VNNI, the same stickers on every CPU, masks a little off float32's"
        }
    }

    /// The instruction set this precision's convolutions run on for the float32 kernel path `kernels`.
    public func instructions(on kernels: ConvolutionKernels = .default) -> String {
        switch self {
        case .fp32: return kernels.description
        case .int8:
            switch sk_q8_path_for_kernels(kernels.rawValue) {
            case Int32(SK_Q8_AVX512VNNI): return "AVX-512 VNNI"
            case Int32(SK_Q8_AVXVNNI): return "AVX-VNNI"
            case Int32(SK_Q8_AVX2): return "AVX2"
            default: return "scalar"
            }
        }
    }
}

/// What `cutout.precision` and `--precision` may say: a precision, or `auto` for the one the
/// product chooses (`InferencePrecision.automatic`). A fleet of mixed CPUs that must make the same
/// stickers everywhere names one.
public enum PrecisionSetting: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case auto
    case fp32
    case int8

    public static let `default` = PrecisionSetting.auto

    /// The precision this setting runs on this CPU.
    public var resolved: InferencePrecision {
        switch self {
        case .auto: .automatic
        case .fp32: .fp32
        case .int8: .int8
        }
    }

    /// The setting named `name`, if any.
    public static func named(_ name: String) -> PrecisionSetting? { PrecisionSetting(rawValue: name) }

    /// "auto, fp32 or int8", for messages.
    public static var choices: String { "auto, fp32 or int8" }
}
