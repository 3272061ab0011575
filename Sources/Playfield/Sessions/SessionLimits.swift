/// Bounds on live sessions.
struct SessionLimits: Sendable {
  /// Most sessions alive at once; creating another gets 503.
  var maxLive = 256
  /// Seconds without any client before a running session pauses.
  var idlePause: Double = 30
  /// Seconds without any update before a session is removed for good.
  var maxAge: Double = 7 * 24 * 3600
  /// Live sessions one client (an address, or a browser family of it) may hold.
  var perClient = 16
  /// Live sessions all clients of one address may hold together.
  var perAddress = 64
  /// Inputs one session may log; past it the session takes no more input.
  var maxInputs = 200_000
}
