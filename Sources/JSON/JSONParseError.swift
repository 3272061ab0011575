/// Why a document is not valid JSON, where the parser noticed, and in which value.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, in a few words (for example `unexpected character 'x'`).
  public var message: String
  /// Byte offset from the start of the document.
  public var offset: Int
  /// The path of the innermost member or element it happened in, such as `config.gravity` or
  /// `walls[3]`; nil at the top level.
  public var field: String?

  /// Makes an error.
  public init(message: String, offset: Int, field: String? = nil) {
    self.message = message
    self.offset = offset
    self.field = field
  }

  /// `message at byte N`, and `in FIELD` when it happened inside an object or array.
  public var description: String {
    "\(message) at byte \(offset)" + (field.map { " in \($0)" } ?? "")
  }

  /// The same error, inside the member `key` of an object.
  func inside(key: String) -> JSONParseError {
    var error = self
    error.field = key + (field.map { $0.hasPrefix("[") ? $0 : "." + $0 } ?? "")
    return error
  }

  /// The same error, inside element `index` of an array.
  func inside(index: Int) -> JSONParseError {
    var error = self
    error.field = "[\(index)]" + (field.map { $0.hasPrefix("[") ? $0 : "." + $0 } ?? "")
    return error
  }
}
