import JSON

/// What advances a session: the game loop's 60 Hz tick, or its controller's `step` requests.
enum SessionClock: String, Sendable, CaseIterable {
  /// Stepped by the game loop, 60 ticks a second while running (the default).
  case realtime
  /// Never stepped by the game loop: each `step` of its controller runs as soon as it arrives,
  /// off the tick (`OnDemandSteps`), and is answered with the frame after its last tick.
  case onDemand = "on-demand"

  /// The clock a session was stored with; one this version does not know (written by a newer
  /// one) reads as realtime, which a stopped session keeps stopped.
  init(stored: String) {
    self = SessionClock(rawValue: stored) ?? .realtime
  }

  /// The `clock` field of a create request; nil when absent (realtime).
  static func parse(_ value: JSONValue?) -> SessionClock? {
    guard let value else { return .realtime }
    return value.stringValue.flatMap(SessionClock.init(rawValue:))
  }
}
