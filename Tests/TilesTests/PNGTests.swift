import Testing

@testable import Tiles

@Suite struct PNGTests {
  @Test func defaultTileDecodesToTheSeedColours() throws {
    let request = try TileRequest.parse(path: "0/0/0.png", query: nil)
    let png = try TileRenderer(threads: 2).png(for: request)
    #expect(png.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    let image = try PNGDecoder.decodeRGB(png)
    #expect(image.width == 256 && image.height == 256)
    #expect(image.wasPalette)
    let counts = EscapeTimeKernel.scalar.render(
      Viewport(tile: request.tile), maxIterations: 200
    ).counts
    for row in 0..<256 {
      for column in 0..<256 {
        let expected = seedColour(Int(counts[row * 256 + column]), of: 200)
        #expect(image.colour(column: column, row: row) == expected, "(\(column), \(row))")
      }
    }
  }

  @Test func manyColouredTilesFallBackToExactRGB() throws {
    let request = try TileRequest.parse(path: "2/1/1.png", query: "iter=3000&palette=ultra")
    let renderer = TileRenderer(threads: 2)
    let image = TileImage(field: renderer.field(for: request), palette: request.palette)
    #expect(!image.fitsPalette)
    let decoded = try PNGDecoder.decodeRGB(try renderer.png(for: request))
    #expect(!decoded.wasPalette)
    #expect(decoded.rgb == image.rgbBytes())
  }

  @Test func rgbAndPaletteRoundTripUnderEveryOption() throws {
    var generator = SystemRandomNumberGenerator()
    let (width, height) = (37, 19)
    let rgb = (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let palette = (0..<256).map { RGB(UInt8($0), UInt8(255 - $0), UInt8($0 / 2)) }
    let indices = (0..<width * height).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for level in [0, 1, 6, 9] {
      for strategy in PNGEncoder.Strategy.allCases {
        for filters in [PNGEncoder.Filters.none, .all, .paeth] {
          let options = PNGEncoder.Options(level: level, strategy: strategy, filters: filters)
          let a = try PNGDecoder.decodeRGB(
            PNGEncoder.encodeRGB(rgb, width: width, height: height, options: options))
          #expect(a.rgb == rgb && !a.wasPalette)
          let b = try PNGDecoder.decodeRGB(
            PNGEncoder.encodePalette(
              indices, palette: palette, width: width, height: height, options: options))
          #expect(b.wasPalette)
          #expect(b.rgb == indices.flatMap { [UInt8($0), UInt8(255 - $0), UInt8($0 / 2)] })
        }
      }
    }
  }

  @Test func badInputsThrowInsteadOfCrashing() {
    let two = [RGB.black, RGB(255, 255, 255)]
    #expect(throws: PNGError.self) {
      try PNGEncoder.encodeRGB([1, 2, 3], width: 2, height: 1)
    }
    #expect(throws: PNGError.self) {
      try PNGEncoder.encodeRGB([], width: 0, height: 0)
    }
    #expect(throws: PNGError.self) {
      try PNGEncoder.encodePalette([0, 2], palette: two, width: 2, height: 1)
    }
    #expect(throws: PNGError.self) {
      try PNGEncoder.encodePalette([0], palette: [], width: 1, height: 1)
    }
    #expect(throws: PNGError.self) {
      try PNGEncoder.encodePalette(
        [0], palette: Array(repeating: .black, count: 257), width: 1, height: 1)
    }
    #expect(throws: PNGError.self) {
      try PNGEncoder.encodeRGB(
        [0, 0, 0], width: 1, height: 1, options: PNGEncoder.Options(level: 10))
    }
  }

  @Test func corruptFilesAreReportedByLibpng() throws {
    let good = try PNGEncoder.encodePalette(
      [0, 1, 1, 0], palette: [.black, RGB(9, 9, 9)], width: 2, height: 2)
    var corrupt = good
    corrupt[corrupt.count / 2] ^= 0xff
    for bytes in [[], [0x89, 0x50], Array(good.prefix(40)), corrupt, Array("not a png".utf8)] {
      #expect(throws: PNGError.self) { try PNGDecoder.decodeRGB(bytes) }
    }
    let error = try #require(throws: PNGError.self) { try PNGDecoder.decodeRGB([1, 2, 3]) }
    #expect(error.message.hasPrefix("libpng: "))
  }
}
