import JSON

/// What was wrong with a client message, sent back as `{"type": "error", ...}`.
struct ClientError: Error, Sendable, Equatable {
  /// A short machine-readable code, e.g. `bad-field`.
  var code: String
  /// A sentence for people.
  var text: String
  /// The message field at fault, if one is.
  var field: String?
  /// The refused message's `id`, when it had one, so that its sender knows which it was.
  var id: JSONValue?
  /// For a refusal that may pass (`busy`, `held-elsewhere`): milliseconds after which to try
  /// again, sent as `retryAfterMs`.
  var retryAfterMs: Int?

  init(_ code: String, _ text: String, field: String? = nil) {
    self.code = code
    self.text = text
    self.field = field
  }
}
