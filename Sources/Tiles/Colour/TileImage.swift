/// A coloured image: a table of its distinct colours and, per pixel, an index into the table.
///
/// Most tiles use few colours, so this form doubles as the cheapest route to an exact 8-bit
/// palette PNG; images with more than 256 colours are written as RGB instead.
public struct TileImage: Sendable, Equatable {
  /// Number of columns.
  public let width: Int
  /// Number of rows.
  public let height: Int
  /// The distinct colours, in order of first appearance.
  public let colours: [RGB]
  /// Per pixel, row-major from the top, an index into `colours`.
  public let indices: [UInt16]

  /// Colours `field` with `palette`. A smooth palette needs a field rendered with
  /// `smooth: true`; without smooth counts its escaped pixels fall back to the raw count.
  public init(field: EscapeField, palette: Palette) {
    width = field.width
    height = field.height
    var assigner = ColourAssigner()
    var indices = [UInt16](repeating: 0, count: field.counts.count)
    let maxIterations = field.maxIterations
    if palette.isSmooth {
      let gradient = palette.gradient
      let cyclic = palette.isCyclic
      let inside = gradient.count
      var slots = [Int32](repeating: -1, count: gradient.count + 1)
      let smoothCounts = field.smoothCounts ?? field.counts.map { Float($0) }
      for pixel in indices.indices {
        let key =
          Int(field.counts[pixel]) == maxIterations
          ? inside : Palette.gradientIndex(smoothCount: smoothCounts[pixel], cyclic: cyclic)
        indices[pixel] = assigner.slot(for: key, in: &slots) {
          key == inside ? .black : gradient[key]
        }
      }
    } else {
      var slots = [Int32](repeating: -1, count: maxIterations + 1)
      for pixel in indices.indices {
        let count = Int(field.counts[pixel])
        indices[pixel] = assigner.slot(for: count, in: &slots) {
          Palette.classicColour(count: count, maxIterations: maxIterations)
        }
      }
    }
    colours = assigner.colours
    self.indices = indices
  }

  /// The colour of pixel (column, row).
  public func colour(column: Int, row: Int) -> RGB {
    colours[Int(indices[row * width + column])]
  }

  /// Whether the image fits an exact 8-bit palette PNG.
  public var fitsPalette: Bool { colours.count <= 256 }

  /// The pixels as RGB triplets, row-major from the top.
  public func rgbBytes() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: indices.count * 3)
    for (pixel, index) in indices.enumerated() {
      let colour = colours[Int(index)]
      bytes[3 * pixel] = colour.red
      bytes[3 * pixel + 1] = colour.green
      bytes[3 * pixel + 2] = colour.blue
    }
    return bytes
  }

  /// Encodes the image as PNG: an exact palette PNG when it has at most 256 colours, else RGB.
  public func encodePNG(
    paletteOptions: PNGEncoder.Options = .palette, rgbOptions: PNGEncoder.Options = .rgb
  ) throws(PNGError) -> [UInt8] {
    guard fitsPalette else {
      return try PNGEncoder.encodeRGB(
        rgbBytes(), width: width, height: height, options: rgbOptions)
    }
    return try PNGEncoder.encodePalette(
      indices.map { UInt8(truncatingIfNeeded: $0) }, palette: colours, width: width,
      height: height, options: paletteOptions)
  }
}
