import Foundation

/// How long the phases of one render took, by the caller's clock, in seconds.
public struct RenderTimings: Sendable, Equatable {
  /// Getting the reference orbit (found, joined or from the cache); nil for tiles drawn with
  /// plain doubles, which need none.
  public var reference: Double?
  /// Computing the escape counts.
  public var pixels: Double
  /// Colours and PNG, or the counts' bytes.
  public var encoding: Double

  /// A render's timings.
  public init(reference: Double?, pixels: Double, encoding: Double) {
    self.reference = reference
    self.pixels = pixels
    self.encoding = encoding
  }

  /// A W3C `Server-Timing` header value in milliseconds, such as
  /// `reference;dur=12.5, pixels;dur=40.1, encoding;dur=3.2`.
  public var serverTiming: String {
    var parts: [String] = []
    if let reference { parts.append("reference;dur=\(Self.milliseconds(reference))") }
    parts.append("pixels;dur=\(Self.milliseconds(pixels))")
    parts.append("encoding;dur=\(Self.milliseconds(encoding))")
    return parts.joined(separator: ", ")
  }

  /// Seconds as milliseconds with at most three decimals.
  private static func milliseconds(_ seconds: Double) -> String {
    String(format: "%.3f", max(0, seconds) * 1000)
  }
}
