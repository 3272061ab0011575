import JSON

/// A client input a model has checked: kept in the model's own type from the socket to `step`,
/// with the normalized JSON that is logged and replayed.
public struct CheckedInput: Sendable {
  /// The model's typed input (or a `Rejected` for a logged message that no longer checks).
  public let value: any Sendable
  private let stored: JSONValue?
  /// The normalized message as logged, when the model wrote the text itself (a batch action:
  /// `BatchStepping.batchInput`), so that it is never built as a `JSONValue` nor serialized
  /// twice on the hot path.
  public let text: String?

  /// Wraps a typed input and its normalized JSON.
  public init(json: JSONValue, value: any Sendable) {
    self.stored = json
    self.text = nil
    self.value = value
  }

  /// Wraps a typed input and its normalized message as JSON text (exactly what `json` would
  /// serialize to: keys sorted, numbers as `JSONWriter` writes them).
  public init(text: String, value: any Sendable) {
    self.stored = nil
    self.text = text
    self.value = value
  }

  /// The normalized message, as logged.
  public var json: JSONValue {
    if let stored { return stored }
    // NB: `text` is written by the model itself, valid by construction.
    return (try? JSONValue.parse(text ?? "null")) ?? .null
  }

  /// The normalized message as logged: JSON text.
  public var loggedText: String { text ?? json.jsonString }

  /// The bytes it takes in the log (what the log's byte bounds count).
  public var loggedSize: Int { text?.utf8.count ?? json.serialized().count }

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
