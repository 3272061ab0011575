/// Why a spheres URL was refused: always 400 Bad Request, naming the field.
public struct SphereRequestError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `radius`, `level` or `surface`.
  public let field: String
  /// A sentence for the response body.
  public let message: String

  public init(field: String, _ message: String) {
    self.field = field
    self.message = message
  }

  /// The message.
  public var description: String { message }

  /// `text` made safe to quote in a message: printable ASCII only, at most 32 characters.
  static func quote(_ text: some StringProtocol) -> String {
    let printable = text.unicodeScalars.map {
      $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f ? Character($0) : "?"
    }
    let shown = String(printable.prefix(32))
    return "'" + shown + (printable.count > 32 ? "…'" : "'")
  }
}
