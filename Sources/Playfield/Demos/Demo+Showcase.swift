import JSON

extension Demo {
  /// How the gallery's live preview of a session demo starts: a livelier config, and inputs
  /// applied before its first frame (a maze with walls in it).
  struct Showcase: Sendable {
    /// The session's config (missing fields take the model's defaults).
    var config: JSONValue = .object([:])
    /// Inputs stepped once before the preview is shown, as the model's messages.
    var inputs: [JSONValue] = []
    /// Whether a new session made by the demo's page starts with `config` too (the page gets
    /// it as `data-config`), so that the page opens as the card the visitor clicked looked.
    var pageStartsAlike = false
  }
}
