/// A PNG could not be written or read; `message` says why (usually libpng's own words).
public struct PNGError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public let message: String

  /// An error with `message`.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
