/// Why a tile URL was refused, and the HTTP status it should get.
///
/// Paths that are not tile paths (`Z/X/Y.png` with a part that is not a number, negative, signed,
/// with leading zeros or absurdly long) are `notFound`. Numbers out of range (X or Y not below
/// 2^Z, Z deeper than `TileCoordinate.maxZoom`) and bad queries (`iter`, `palette`, unknown or
/// repeated parameters) are `badRequest`, naming the field.
public struct TileRequestError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Which status the error maps to.
  public enum Kind: Sendable, Equatable {
    /// 404 Not Found (RFC 9110 §15.5.5).
    case notFound
    /// 400 Bad Request (RFC 9110 §15.5.1).
    case badRequest
  }

  /// Which status the error maps to.
  public let kind: Kind
  /// A sentence for the response body, naming the bad part.
  public let message: String

  /// An error of `kind` with `message`.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// 404 or 400.
  public var status: Int {
    switch kind {
    case .notFound: 404
    case .badRequest: 400
    }
  }

  /// The message.
  public var description: String { message }

  /// `text` made safe to quote in a message: printable ASCII only, at most 32 characters.
  static func quote(_ text: Substring) -> String {
    let printable = text.unicodeScalars.map {
      $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f ? Character($0) : "?"
    }
    let shown = String(printable.prefix(32))
    return "'" + shown + (printable.count > 32 ? "…'" : "'")
  }
}
