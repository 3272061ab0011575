import JSON

/// A client input a model has checked: kept in the model's own type from the socket to `step`,
/// with the normalized JSON that is logged and replayed.
public struct CheckedInput: Sendable {
  /// The normalized message, as logged.
  public let json: JSONValue
  /// The model's typed input (or, for a model without one, the JSON again).
  public let value: any Sendable

  /// Wraps a typed input and its normalized JSON.
  public init(json: JSONValue, value: any Sendable) {
    self.json = json
    self.value = value
  }
}
