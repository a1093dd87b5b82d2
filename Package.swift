// swift-tools-version: 6.2
import PackageDescription

/// Warnings are errors in spirit: CI builds with `-warnings-as-errors` (see Makefile).
let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "sticker-catalog",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "catalog", targets: ["catalog-cli"]),
        .executable(name: "sample-photos", targets: ["sample-photos"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/vapor/multipart-kit", exact: "4.7.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        // PostgreSQL back end (a shared catalog): the wire protocol, TLS through swift-nio-ssl.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // The API tests read the OpenAPI document (API/openapi.yaml) with it; the product does not link it.
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
    ],
    targets: [
        // System libraries (Debian -dev packages, found through pkg-config).
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        // libwebp, with libwebpdemux and libwebpmux for animated WebP (WebPAnimDecoder, WebPAnimEncoder);
        // all three come with libwebp-dev.
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp libwebpdemux libwebpmux", providers: [.apt(["libwebp-dev"])]),
        // FFmpeg's libraries: clips (MP4/MOV, WebM), GIF and APNG decoded into frames (Processing/Animation).
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat libavcodec libswscale libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        // HEIF/HEIC and AVIF (libheif decodes HEVC with libde265 and AV1 with dav1d).
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        // Little CMS: embedded colour profiles to sRGB.
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // zlib's inflate, for PNG iCCP profiles (libpng's simplified API does not hand them out).
        .systemLibrary(name: "CInflate", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libdeflate: whole-buffer inflate of a PNG's image data, 3-4 times zlib's speed (PNGRowDecoder).
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        // glibc's <malloc.h> (mallopt), for the pipeline's allocator tuning (Processing/MallocTuning.swift).
        .systemLibrary(name: "CMalloc"),

        // libpng's full write API (filters, zlib strategy) behind one C function that keeps
        // libpng's setjmp/longjmp error handling inside C.
        .target(name: "CPNGWriter", dependencies: ["CPNG"]),
        // PNG row filters undone (SSE2 for 3- and 4-byte pixels) and rows widened to RGBA: the
        // per-row work of PNGRowDecoder. Optimised in debug builds too, like the kernels below.
        .target(name: "CPNGRows", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),
        // ImageResizer's two passes: 8-bit rows of 1-4 samples widened and premultiplied (AVX2
        // chosen at run time) and filtered across, then down and back to straight bytes (AVX-512
        // at run time); and LanczosResampler's two passes in
        // Pillow's int32 arithmetic (AVX-512/AVX2/portable). Optimised in debug builds too.
        .target(name: "CResampleRows", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),
        // Direct float32 convolution, pooling and resize kernels for the subject cut-out network
        // (AVX-512 or AVX2+FMA chosen at run time through target attributes, scalar fallback). Optimised in
        // debug builds too: unoptimised, one prediction takes a minute, too slow for tests and demos.
        .target(name: "CSegmentationKernels", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),

        // The per-pixel loop of converting matrix-shaper colour profiles to sRGB from tables lcms2
        // computed (ColorConverter.swift). Optimised in debug builds too, like the kernels above.
        .target(name: "CColorMatrix", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),

        // Pure image work: decoders, encoders, EXIF, orientation, resizing, stickers.
        // Optimised in debug builds too (like the kernels): the cut-out's pixel loops are 10-20
        // times slower unoptimised, which made every test import and `make demo CONFIG=debug` crawl.
        .target(
            name: "Processing",
            dependencies: [
                "CTurboJPEG", "CPNG", "CPNGWriter", "CExif", "CWebP", "CFFmpeg", "CHeif", "CLCMS2", "CColorMatrix", "CInflate", "CDeflate", "CPNGRows", "CResampleRows", "CSegmentationKernels", "CMalloc",
            ],
            swiftSettings: strictSwift + [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // The store and the workflows over it.
        .target(
            name: "Catalog",
            dependencies: [
                "Processing",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the R*Tree query callback of colour search (PaletteScoreQuery).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                // The PostgreSQL back end (Sources/Catalog/Postgres).
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift,
            plugins: ["EmbedMigrations"]
        ),
        // `catalog serve`: the HTTP API and the embedded page (Web/) over the Catalog module.
        .target(
            name: "CatalogServer",
            dependencies: [
                "Catalog",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSwift,
            plugins: ["EmbedWebAssets"]
        ),
        // The `catalog` executable.
        .executableTarget(
            name: "catalog-cli",
            dependencies: [
                "Catalog",
                "CatalogServer",
                "Processing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift
        ),

        // Generated scenes (JPEGs with EXIF, PNGs with alpha) for the demo, tests and benchmarks.
        .target(name: "SampleImages", dependencies: ["Processing"], swiftSettings: strictSwift),
        .executableTarget(
            name: "sample-photos",
            dependencies: ["SampleImages", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSwift
        ),

        // Benchmarks (not tests): `make bench-search`, `make bench-palette`, `make bench-cutout`, `make bench-postgres`.
        // They live in Benchmarks/Sources, so Sources/ holds the product only.
        .executableTarget(
            name: "search-bench", dependencies: ["BenchSupport", "Catalog", "Processing"], path: "Benchmarks/Sources/search-bench",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "duplicates-bench", dependencies: ["BenchSupport", "Catalog", "Processing", "SampleImages"], path: "Benchmarks/Sources/duplicates-bench",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "work-bench", dependencies: ["BenchSupport", "Catalog", "Processing"], path: "Benchmarks/Sources/work-bench",
            swiftSettings: strictSwift),
        .executableTarget(name: "palette-bench", dependencies: ["Processing", "SampleImages"], path: "Benchmarks/Sources/palette-bench", swiftSettings: strictSwift),
        .target(name: "BenchSupport", path: "Benchmarks/Sources/BenchSupport", swiftSettings: strictSwift),
        .executableTarget(
            name: "cutout-bench", dependencies: ["BenchSupport", "Catalog", "Processing"], path: "Benchmarks/Sources/cutout-bench", swiftSettings: strictSwift),

        // Build-time: Migrations/*.sql become a Swift source inside the Catalog module.
        .executableTarget(name: "migration-embedder", swiftSettings: strictSwift),
        .plugin(name: "EmbedMigrations", capability: .buildTool(), dependencies: ["migration-embedder"]),
        // Build-time: every file under Web/ becomes a Swift source inside the CatalogServer module.
        .executableTarget(name: "asset-embedder", swiftSettings: strictSwift),
        .plugin(name: "EmbedWebAssets", capability: .buildTool(), dependencies: ["asset-embedder"]),

        // A real PostgreSQL server for the tests of the PostgreSQL back end (initdb into /tmp, one per test
        // process, a fresh database per test); shared by the test targets that need it.
        .target(
            name: "PostgresTestSupport",
            dependencies: ["Catalog"],
            path: "Tests/PostgresTestSupport",
            swiftSettings: strictSwift
        ),

        // Child processes the tests await without blocking a thread of the test pool (tools such as
        // ffmpeg, and the catalog binary itself); shared by the test targets that start them.
        .target(name: "TestProcessSupport", path: "Tests/TestProcessSupport", swiftSettings: strictSwift),

        .testTarget(
            name: "ProcessingTests", dependencies: ["Processing", "SampleImages", "TestProcessSupport"], swiftSettings: strictSwift
        ),
        .testTarget(
            name: "CatalogTests",
            dependencies: [
                "Catalog", "SampleImages", "PostgresTestSupport", "TestProcessSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "CatalogServerTests",
            dependencies: [
                "CatalogServer", "Catalog", "SampleImages", "Processing",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "catalog-cli", "Catalog", "SampleImages", "Processing", "PostgresTestSupport", "TestProcessSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strictSwift
        ),
    ]
)
