/// An 8-bit sRGB colour.
public struct RGB: Sendable, Hashable, CustomStringConvertible {
  /// Red, 0...255.
  public var red: UInt8
  /// Green, 0...255.
  public var green: UInt8
  /// Blue, 0...255.
  public var blue: UInt8

  /// A colour from its three channels.
  public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// A colour from channels in [0, 1], each rounded as `floor(v * 255 + 0.5)` after clamping.
  public init(unit red: Double, _ green: Double, _ blue: Double) {
    self.init(Self.channel(red), Self.channel(green), Self.channel(blue))
  }

  /// Black, the colour of the set itself.
  public static let black = RGB(0, 0, 0)

  /// `rgb(R, G, B)`.
  public var description: String { "rgb(\(red), \(green), \(blue))" }

  /// The colour packed as 0xRRGGBB, a cheap dictionary key.
  var packed: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

  /// `floor(v * 255 + 0.5)` of v clamped to [0, 1]: the rounding `png_ref.c` uses.
  @inline(__always)
  static func channel(_ value: Double) -> UInt8 {
    UInt8((min(max(value, 0), 1) * 255 + 0.5).rounded(.down))
  }
}
