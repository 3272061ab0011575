/// A rejected config, input, query or snapshot; names the field and says what is allowed.
public struct SimulationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was wrong: the message itself, or what it asked of the model's state.
  public enum Kind: Sendable, Equatable {
    /// A field is missing, of the wrong type or out of its range (WebSocket `bad-field`).
    case badField
    /// Well formed, but the state does not allow it now: a game's rule (`refused`).
    case refused
  }

  /// The offending field, if one is to blame, e.g. `"balls"` or `"tags[3].url"`.
  public var field: String?
  /// What is wrong, e.g. `must be an integer from 1 to 10000`.
  public var message: String
  public var kind: Kind

  /// Makes an error.
  public init(field: String?, message: String, kind: Kind = .badField) {
    self.field = field
    self.message = message
    self.kind = kind
  }

  /// The same error, said of the state rather than of the message.
  public var refusal: SimulationError {
    SimulationError(field: field, message: message, kind: .refused)
  }

  /// `field: message`, or just the message.
  public var description: String {
    guard let field else { return message }
    return "\(field): \(message)"
  }
}
