import PNGShim

/// Writes 8-bit PNG images to memory with libpng.
public enum PNGEncoder {
  /// zlib and PNG filter settings for one encode.
  public struct Options: Sendable, Hashable {
    /// zlib compression level, 0 (store) to 9 (smallest).
    public var level: Int
    /// zlib strategy.
    public var strategy: Strategy
    /// PNG row filters libpng may choose from.
    public var filters: Filters

    /// Settings from their parts.
    public init(level: Int, strategy: Strategy = .default, filters: Filters = .none) {
      self.level = level
      self.strategy = strategy
      self.filters = filters
    }

    /// For palette tiles: zlib level 1, no filter. On the 64 level-3 tiles at 1000 iterations
    /// it encodes 3.4 times faster than level 6 for 27% more bytes; Z_RLE is as fast and 17%
    /// smaller with the classic palette but three times larger with the smooth ones
    /// (Benchmarks/tiles/README.md).
    public static let palette = Options(level: 1, strategy: .default, filters: .none)
    /// For RGB tiles: zlib level 1, no filter; 2.4 to 3.6 times faster than level 6 for 30%
    /// more bytes, and filtering (even libpng's adaptive choice) only made these tiles larger.
    public static let rgb = Options(level: 1, strategy: .default, filters: .none)
  }

  /// zlib's compression strategies.
  public enum Strategy: Int32, Sendable, Hashable, CaseIterable {
    /// Z_DEFAULT_STRATEGY.
    case `default` = 0
    /// Z_FILTERED.
    case filtered = 1
    /// Z_HUFFMAN_ONLY.
    case huffmanOnly = 2
    /// Z_RLE: matches only at distance 1, fast on runs of equal bytes.
    case rle = 3
  }

  /// A set of PNG row filters (PNG specification §9.2).
  public struct Filters: OptionSet, Sendable, Hashable {
    /// The libpng PNG_FILTER_* bits.
    public let rawValue: Int32
    /// Filters from libpng's PNG_FILTER_* bits.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Rows as they are.
    public static let none = Filters(rawValue: Int32(PF_PNG_FILTER_NONE))
    /// Difference to the left neighbour.
    public static let sub = Filters(rawValue: Int32(PF_PNG_FILTER_SUB))
    /// Difference to the pixel above.
    public static let up = Filters(rawValue: Int32(PF_PNG_FILTER_UP))
    /// Difference to the mean of left and above.
    public static let average = Filters(rawValue: Int32(PF_PNG_FILTER_AVG))
    /// Paeth predictor.
    public static let paeth = Filters(rawValue: Int32(PF_PNG_FILTER_PAETH))
    /// Every filter, chosen per row by libpng's heuristic (its default).
    public static let all: Filters = [.none, .sub, .up, .average, .paeth]
  }

  /// Encodes `pixels`, `width`·`height` RGB triplets row-major from the top.
  public static func encodeRGB(
    _ pixels: [UInt8], width: Int, height: Int, options: Options = .rgb
  ) throws(PNGError) -> [UInt8] {
    guard width > 0, height > 0, pixels.count == width * height * 3 else {
      throw PNGError("expected \(width)x\(height)x3 bytes of RGB, got \(pixels.count)")
    }
    return try encode(
      pixels, width: width, height: height, stride: width * 3, colour: Int32(PF_PNG_RGB),
      palette: [], options: options)
  }

  /// Encodes `indices`, one byte per pixel row-major from the top, into `palette`.
  public static func encodePalette(
    _ indices: [UInt8], palette: [RGB], width: Int, height: Int, options: Options = .palette
  ) throws(PNGError) -> [UInt8] {
    guard width > 0, height > 0, indices.count == width * height else {
      throw PNGError("expected \(width)x\(height) palette indices, got \(indices.count)")
    }
    guard (1...256).contains(palette.count) else {
      throw PNGError("a PNG palette holds 1 to 256 colours, not \(palette.count)")
    }
    guard let largest = indices.max(), Int(largest) < palette.count else {
      throw PNGError("a pixel indexes past the \(palette.count)-colour palette")
    }
    let table = palette.flatMap { [$0.red, $0.green, $0.blue] }
    return try encode(
      indices, width: width, height: height, stride: width,
      colour: Int32(PF_PNG_PALETTE), palette: table, options: options)
  }

  private static func encode(
    _ pixels: [UInt8], width: Int, height: Int, stride: Int, colour: Int32, palette: [UInt8],
    options: Options
  ) throws(PNGError) -> [UInt8] {
    guard (0...9).contains(options.level) else {
      throw PNGError("zlib level \(options.level) is not in 0...9")
    }
    guard width <= 65536, height <= 65536 else {
      throw PNGError("image of \(width)x\(height) is too large")
    }
    var output = pf_png_output()
    let status = pixels.withUnsafeBufferPointer { pixels in
      palette.withUnsafeBufferPointer { palette in
        pf_png_encode(
          pixels.baseAddress, UInt32(width), UInt32(height), stride, colour, palette.baseAddress,
          Int32(palette.count / 3), Int32(options.level), options.strategy.rawValue,
          options.filters.rawValue, &output)
      }
    }
    defer { pf_png_output_free(&output) }
    guard status == 0 else { throw PNGError(ShimText.string(from: &output.message)) }
    return Array(UnsafeBufferPointer(start: output.data, count: output.size))
  }
}
