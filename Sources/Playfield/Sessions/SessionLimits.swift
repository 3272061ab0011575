/// Bounds on live sessions, as the operator's `Limits` set them.
struct SessionLimits: Sendable {
  /// Most sessions alive at once; creating another gets 503.
  var maxLive: Int
  /// Seconds without any client before a running session pauses.
  var idlePause: Double
  /// Seconds without any update before a session is removed for good.
  var maxAge: Double
  /// Live sessions one client (an address, or a browser family of it) may hold.
  var perClient: Int
  /// Live sessions all clients of one address may hold together.
  var perAddress: Int
  /// Inputs one session may log; past it the session takes no more input.
  var maxInputs: Int

  init(_ limits: Limits = Limits()) {
    maxLive = limits[.maxSessions]
    idlePause = limits[.idlePause]
    maxAge = limits[.sessionMaxAge]
    perClient = limits[.sessionsPerClient]
    perAddress = limits[.sessionsPerClient] * limits[.familiesPerAddress]
    maxInputs = limits[.inputsPerSession]
  }
}
