// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Playfield",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "playfield", targets: ["playfield"])
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
  ],
  targets: [
    // C glue: system libraries found through pkg-config.
    .systemLibrary(
      name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .systemLibrary(
      name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
    .systemLibrary(
      name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
    .systemLibrary(
      name: "CLibXML2", pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
    .target(name: "PNGShim", dependencies: ["CPNG"]),
    .target(name: "CPosix"),
    // libcurl (`libcurl4-openssl-dev`) for recipe imports by URL, with a typed face (its
    // setopt is variadic) and the hook that checks each address before connecting.
    .target(name: "CurlShim", linkerSettings: [.linkedLibrary("curl")]),

    // Pure layers: no sockets, no clock, no disk.
    .target(name: "Deflate", dependencies: ["CZlib"]),
    .target(name: "HTTP"),
    .target(name: "WebSocket", dependencies: ["HTTP", "Deflate"]),
    .target(name: "JSON"),
    // NB: optimized in debug builds too: the street soccer opponents search thousands of
    // boards a turn, 50 times slower unoptimized, and the unit tests play whole matches.
    .target(
      name: "Simulation", dependencies: ["JSON"],
      swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
    .target(name: "Apollonian", dependencies: ["JSON"]),
    // Recipe extraction from HTML pages (schema.org JSON-LD, microdata, microformats, RDFa).
    .target(name: "Recipes", dependencies: ["JSON", "CLibXML2"]),
    // NB: -march=native lets the SIMD kernel use AVX2 (or AVX-512) on the machine that builds
    // it; Swift never fuses multiply-adds, so the counts stay those of the scalar loop.
    .target(
      name: "Tiles", dependencies: ["PNGShim"],
      swiftSettings: [
        .unsafeFlags(["-Xcc", "-march=native"], .when(platforms: [.linux])),
        .unsafeFlags(["-O"], .when(configuration: .debug)),
      ]),

    // I/O layers.
    .target(name: "Storage", dependencies: ["CSQLite", "CLibPQ"]),
    .target(
      name: "Server",
      dependencies: [
        "CPosix", "HTTP", "WebSocket", .product(name: "Logging", package: "swift-log"),
      ]),

    // The app and its executable.
    .target(
      name: "Playfield",
      dependencies: [
        "HTTP", "WebSocket", "Server", "JSON", "Simulation", "Tiles", "Storage", "Deflate",
        "Apollonian", "Recipes", "CPosix", "CurlShim",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Mustache", package: "swift-mustache"),
      ]),
    .executableTarget(
      name: "playfield",
      dependencies: [
        "Playfield", "CPosix",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]),

    // Prints the recipe of an HTML file: the dev-set scorer and benchmarks run it.
    .executableTarget(name: "recipe-import", dependencies: ["Recipes", "JSON"]),

    // libFuzzer targets over the pure parsers; `make fuzz` builds them instrumented, a plain
    // build links them without libFuzzer (they then only say how to build them). NB: Playfield
    // for its registry of demos (`DemoRegistry.models`), which picks the model to fuzz.
    .target(name: "FuzzShim", path: "Tests/fuzz/FuzzShim"),
    .executableTarget(
      name: "PlayfieldFuzz",
      dependencies: [
        "FuzzShim", "HTTP", "JSON", "WebSocket", "Tiles", "Simulation", "Recipes", "Playfield",
      ],
      path: "Tests/fuzz/PlayfieldFuzz"),

    // A seeded generator the unit tests share.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "DeflateTests", dependencies: ["Deflate", "TestSupport"]),
    .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
    .testTarget(
      name: "WebSocketTests", dependencies: ["WebSocket", "HTTP", "Deflate", "TestSupport"]),
    .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
    // NB: Playfield too, for the determinism of sessions on both clocks (ClockDeterminismTests)
    // and the registry of demos (`DemoRegistry.models`), which the model tests walk.
    .testTarget(name: "SimulationTests", dependencies: ["Simulation", "JSON", "Playfield"]),
    .testTarget(name: "ApollonianTests", dependencies: ["Apollonian", "JSON"]),
    .testTarget(name: "RecipesTests", dependencies: ["Recipes", "JSON"]),
    .testTarget(name: "TilesTests", dependencies: ["Tiles", "TestSupport"]),
    // A process that opens a SQLite store and holds it, for the one-process-per-file tests.
    .executableTarget(
      name: "StorageLockProbe", dependencies: ["Storage"], path: "Tests/StorageLockProbe"),
    .testTarget(name: "StorageTests", dependencies: ["Storage", "StorageLockProbe"]),
    .testTarget(name: "ServerTests", dependencies: ["Server", "HTTP", "WebSocket"]),
    .testTarget(
      name: "PlayfieldTests", dependencies: ["Playfield", "HTTP", "Server", "Simulation", "JSON"]),
  ],
  swiftLanguageModes: [.v6]
)
