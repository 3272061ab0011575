/// A rejected config, input or snapshot; names the field and says what is allowed.
public struct SimulationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The offending field, if one is to blame, e.g. `"balls"` or `"tags[3].url"`.
  public var field: String?
  /// What is wrong, e.g. `must be an integer from 1 to 10000`.
  public var message: String

  /// Makes an error.
  public init(field: String?, message: String) {
    self.field = field
    self.message = message
  }

  /// `field: message`, or just the message.
  public var description: String {
    guard let field else { return message }
    return "\(field): \(message)"
  }
}
