import JSON

extension Simulation {
  /// Checks a message read back from the log once, into the model's typed input; one that no
  /// longer checks (a damaged log) becomes a rejected input, which its step reports as
  /// `input-rejected`.
  public static func loggedInput(_ message: JSONValue) -> CheckedInput {
    do {
      return try checkedInput(from: message)
        ?? .rejected(message, reason: "unknown input type \(message["type"] ?? .null)")
    } catch {
      return .rejected(message, reason: "\(error)")
    }
  }

  /// Parses each logged message once (`loggedInput`), then steps: how restores and tests feed
  /// JSON to a model.
  public mutating func step(parsing messages: [JSONValue]) -> [SimulationEvent] {
    step(checked: messages.map(Self.loggedInput))
  }
}
