import PNGShim

/// Reads PNG images with libpng: for tests and tools that check what the encoder wrote.
public enum PNGDecoder {
  /// A decoded image.
  public struct Image: Sendable, Equatable {
    /// Number of columns.
    public var width: Int
    /// Number of rows.
    public var height: Int
    /// Whether the file stored palette indices rather than colours.
    public var wasPalette: Bool
    /// RGB triplets, row-major from the top.
    public var rgb: [UInt8]

    /// The colour of pixel (column, row).
    public func colour(column: Int, row: Int) -> RGB {
      let offset = 3 * (row * width + column)
      return RGB(rgb[offset], rgb[offset + 1], rgb[offset + 2])
    }
  }

  /// Decodes any PNG of at most 2^26 pixels to 8-bit RGB.
  public static func decodeRGB(_ data: [UInt8]) throws(PNGError) -> Image {
    var info = pf_png_info()
    var pixels: UnsafeMutablePointer<UInt8>?
    let status = data.withUnsafeBufferPointer {
      pf_png_decode_rgb($0.baseAddress, $0.count, &pixels, &info)
    }
    defer { pf_png_free_pixels(pixels) }
    guard status == 0, let pixels else { throw PNGError(ShimText.string(from: &info.message)) }
    let count = Int(info.width) * Int(info.height) * 3
    return Image(
      width: Int(info.width), height: Int(info.height), wasPalette: info.was_palette != 0,
      rgb: Array(UnsafeBufferPointer(start: pixels, count: count)))
  }
}
