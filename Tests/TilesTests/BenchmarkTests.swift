import Dispatch
import Foundation
import Testing

@testable import Tiles

/// Speed figures for Benchmarks/tiles/run.sh; skipped unless PLAYFIELD_BENCH=1. They assert
/// only correctness; the times are printed as `BENCH` lines for the script to collect.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PLAYFIELD_BENCH"] == "1"), .serialized)
struct BenchmarkTests {
  /// Repetitions per figure (the best is kept): PLAYFIELD_BENCH_RUNS, default 15. On a shared
  /// machine more runs give a better chance of catching the cores idle.
  let runs = ProcessInfo.processInfo.environment["PLAYFIELD_BENCH_RUNS"].flatMap { Int($0) } ?? 15

  /// The best wall time of `runs` calls of `body`, in seconds.
  func best(of runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      try body()
      best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
  }

  @Test func kernelThroughput() {
    let tiles = [
      (5, 14, 11, 1000), (0, 0, 0, 200), (20, 439_128, 478_211, 1000), (12, 315, 2050, 1000),
    ]
    for (zoom, x, y, iterations) in tiles {
      let viewport = Viewport(tile: TileCoordinate(zoom: zoom, x: x, y: y)!)
      let total = EscapeTimeKernel.scalar.render(viewport, maxIterations: iterations)
        .totalIterations
      for kernel in [EscapeTimeKernel.simd4, .simd8] {
        for threads in [1, 2] {
          var field: EscapeField?
          let seconds = best(of: runs) {
            field = kernel.render(viewport, maxIterations: iterations, threads: threads)
          }
          #expect(field?.totalIterations == total)
          let line = String(
            format: "BENCH kernel tile=%d/%d/%d iter=%d kernel=%@ threads=%d"
              + " ms=%.3f Miter_per_s=%.0f",
            zoom, x, y, iterations, kernel.rawValue, threads, seconds * 1e3,
            Double(total) / seconds / 1e6)
          print(line)
        }
      }
    }
  }

  @Test func levelThreeTilesCold() throws {
    let renderer = TileRenderer(threads: 2)
    let requests = (0..<64).map {
      TileRequest(tile: TileCoordinate(zoom: 3, x: $0 % 8, y: $0 / 8)!, iterations: 1000)
    }
    var bytes = 0
    var palettes = 0
    var phases = (compute: Double.infinity, colour: Double.infinity, encode: Double.infinity)
    let total = try best(of: runs) {
      var compute = 0.0
      var colour = 0.0
      var encode = 0.0
      bytes = 0
      palettes = 0
      for request in requests {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let field = renderer.field(for: request)
        let t1 = DispatchTime.now().uptimeNanoseconds
        let image = TileImage(field: field, palette: request.palette)
        let t2 = DispatchTime.now().uptimeNanoseconds
        let png = try image.encodePNG()
        let t3 = DispatchTime.now().uptimeNanoseconds
        compute += Double(t1 - t0) / 1e9
        colour += Double(t2 - t1) / 1e9
        encode += Double(t3 - t2) / 1e9
        bytes += png.count
        palettes += image.fitsPalette ? 1 : 0
      }
      phases = (
        min(phases.compute, compute), min(phases.colour, colour), min(phases.encode, encode)
      )
    }
    let line = String(
      format: "BENCH tiles64 level=3 iter=1000 total_ms=%.1f compute_ms=%.1f colour_ms=%.1f"
        + " encode_ms=%.1f bytes=%d palette_pngs=%d",
      total * 1e3, phases.compute * 1e3, phases.colour * 1e3, phases.encode * 1e3, bytes, palettes)
    print(line)
    #expect(palettes > 0)
  }

  @Test(arguments: [Palette.classic, .ultra])
  func pngSettings(palette: Palette) throws {
    let renderer = TileRenderer(threads: 2)
    let images = (0..<64).map {
      let request = TileRequest(
        tile: TileCoordinate(zoom: 3, x: $0 % 8, y: $0 / 8)!, iterations: 1000, palette: palette)
      return TileImage(field: renderer.field(for: request), palette: palette)
    }
    let rgb = images.map { $0.rgbBytes() }
    let indexed = images.filter(\.fitsPalette)
    let indices = indexed.map { $0.indices.map { UInt8(truncatingIfNeeded: $0) } }
    let settings: [(String, PNGEncoder.Options)] = [
      ("level1", .init(level: 1)), ("level1-rle", .init(level: 1, strategy: .rle)),
      ("level1-up", .init(level: 1, filters: .up)), ("level6", .init(level: 6)),
      ("level6-adaptive", .init(level: 6, filters: .all)), ("level9", .init(level: 9)),
    ]
    for (name, options) in settings {
      var paletteBytes = 0
      var rgbBytes = 0
      let paletteSeconds = try best(of: max(1, runs / 5)) {
        paletteBytes = 0
        for (image, indices) in zip(indexed, indices) {
          paletteBytes +=
            try PNGEncoder.encodePalette(
              indices, palette: image.colours, width: 256, height: 256, options: options
            ).count
        }
      }
      let rgbSeconds = try best(of: max(1, runs / 5)) {
        rgbBytes = 0
        for pixels in rgb {
          rgbBytes += try PNGEncoder.encodeRGB(pixels, width: 256, height: 256, options: options)
            .count
        }
      }
      let line = String(
        format: "BENCH png palette=%@ setting=%@ palette_tiles=%d palette_ms=%.1f"
          + " palette_bytes=%d rgb_tiles=64 rgb_ms=%.1f rgb_bytes=%d",
        palette.rawValue, name, indexed.count, paletteSeconds * 1e3, paletteBytes,
        rgbSeconds * 1e3, rgbBytes)
      print(line)
    }
  }
}
