import Testing

@testable import Tiles

/// The seed's colour, written out again from the article: inside black; f = n/max;
/// f ≤ 0.5 → rgb(2f, 2f, 1-2f), else rgb(1, 2-2f, 0); channels floor(v·255 + 0.5).
func seedColour(_ n: Int, of max: Int) -> RGB {
  if n == max { return RGB(0, 0, 0) }
  let f = Double(n) / Double(max)
  let (r, g, b) = f <= 0.5 ? (2 * f, 2 * f, 1 - 2 * f) : (1, 2 - 2 * f, 0)
  func byte(_ v: Double) -> UInt8 { UInt8((v * 255 + 0.5).rounded(.down)) }
  return RGB(byte(r), byte(g), byte(b))
}

@Suite struct ColourTests {
  @Test func classicPaletteIsTheSeedScheme() {
    for max in [1, 2, 7, 200, 255, 256, 1000, 100_000] {
      for n in Set([0, 1, max / 4, max / 2, max / 2 + 1, 3 * max / 4, max - 1, max]) {
        #expect(
          Palette.classicColour(count: n, maxIterations: max) == seedColour(n, of: max),
          "n = \(n) of \(max)")
      }
    }
    #expect(Palette.classicColour(count: 0, maxIterations: 200) == RGB(0, 0, 255))
    #expect(Palette.classicColour(count: 100, maxIterations: 200) == RGB(255, 255, 0))
    #expect(Palette.classicColour(count: 150, maxIterations: 200) == RGB(255, 128, 0))
    #expect(Palette.classicColour(count: 200, maxIterations: 200) == .black)
  }

  @Test func channelsRoundHalfUp() {
    #expect(RGB(unit: 0, 1, 0.5) == RGB(0, 255, 128))
    #expect(RGB(unit: 1.0 / 255 * 0.49, 1.0 / 255 * 0.51, -3) == RGB(0, 1, 0))
    #expect(RGB(unit: 7, 0.2, 0.998) == RGB(255, 51, 254))
  }

  @Test func tileImageUsesTheSeedColoursForEveryPixel() {
    let field = EscapeTimeKernel.preferred.render(
      Viewport(tile: TileCoordinate(zoom: 0, x: 0, y: 0)!), maxIterations: 200, threads: 2)
    let image = TileImage(field: field, palette: .classic)
    for row in 0..<256 {
      for column in 0..<256 {
        let n = Int(field.counts[row * 256 + column])
        #expect(image.colour(column: column, row: row) == seedColour(n, of: 200))
      }
    }
    #expect(image.fitsPalette)
    #expect(Set(image.colours).count == image.colours.count)
  }

  @Test(arguments: Palette.allCases.filter(\.isSmooth))
  func smoothPalettesKeepTheSetBlackAndVaryOutside(palette: Palette) throws {
    let field = EscapeTimeKernel.preferred.render(
      Viewport(tile: TileCoordinate(zoom: 2, x: 1, y: 1)!), maxIterations: 500, smooth: true)
    let image = TileImage(field: field, palette: palette)
    let gradient = Set(palette.gradient)
    var outside = Set<RGB>()
    for pixel in field.counts.indices {
      let colour = image.colours[Int(image.indices[pixel])]
      if field.counts[pixel] == 500 {
        #expect(colour == .black)
      } else {
        #expect(gradient.contains(colour))
        outside.insert(colour)
      }
    }
    #expect(outside.count > 100)
    #expect(palette.gradient.count == Palette.gradientSize)
  }

  @Test func gradientPositionsStayInTheTable() {
    for cyclic in [true, false] {
      for mu: Float in [-5, 0, 0.5, 1, 24.999, 25, 80.99, 81, 1e5, 3e9] {
        let index = Palette.gradientIndex(smoothCount: mu, cyclic: cyclic)
        #expect((0..<Palette.gradientSize).contains(index))
      }
    }
    // The walked-back gradients meet themselves where a cycle ends: no seam.
    let before = Palette.gradientIndex(smoothCount: 24.99, cyclic: false)
    let after = Palette.gradientIndex(smoothCount: 25.01, cyclic: false)
    #expect(abs(before - after) <= 2)
  }
}
