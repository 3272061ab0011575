import JSON

/// A client input a model has checked: kept in the model's own type from the socket to `step`,
/// with the normalized JSON that is logged and replayed.
public struct CheckedInput: Sendable {
  /// The normalized message, as logged.
  public let json: JSONValue
  /// The model's typed input (or a `Rejected` for a logged message that no longer checks).
  public let value: any Sendable

  /// Wraps a typed input and its normalized JSON.
  public init(json: JSONValue, value: any Sendable) {
    self.json = json
    self.value = value
  }

  /// A logged message that no longer checks (a damaged log): its step reports
  /// `input-rejected` with `reason` and applies nothing.
  public static func rejected(_ json: JSONValue, reason: String) -> CheckedInput {
    CheckedInput(json: json, value: Rejected(reason: reason))
  }

  /// Why a logged message could not be checked.
  public struct Rejected: Sendable {
    public let reason: String
  }
}
