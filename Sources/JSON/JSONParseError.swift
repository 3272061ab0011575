/// Why a document is not valid JSON, and the byte offset where the parser noticed.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, in a few words (for example `unexpected character 'x'`).
  public var message: String
  /// Byte offset from the start of the document.
  public var offset: Int

  /// Makes an error.
  public init(message: String, offset: Int) {
    self.message = message
    self.offset = offset
  }

  /// `message at byte N`.
  public var description: String { "\(message) at byte \(offset)" }
}
