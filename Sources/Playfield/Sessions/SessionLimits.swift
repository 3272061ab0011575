/// Bounds on live sessions, as the operator's `Limits` set them.
struct SessionLimits: Sendable {
  /// Most sessions alive at once; creating another gets 503.
  var maxLive: Int
  /// Seconds without any client before a running session pauses.
  var idlePause: Double
  /// Seconds without any update before a session is removed for good.
  var maxAge: Double
  /// Seconds a parked session is kept without updates before it is deleted.
  var parkedMaxAge: Double
  /// Live sessions one client (an address, or a browser family of it) may hold.
  var perClient: Int
  /// Live sessions all clients of one address may hold together: their families' quotas, but
  /// at most the address's share of `maxLive` (`--session-share`), so that a handful of
  /// addresses cannot fill the server.
  var perAddress: Int
  /// Of `perClient`, how many one client may hold on demand (`SessionClock.onDemand`).
  var onDemandPerClient: Int
  /// Most ticks one `step` message may ask for.
  var maxStepTicks: Int
  /// Inputs one session may log; past it the session takes no more input.
  var maxInputs: Int
  /// Bytes of input one session may log; past it the session takes no more input.
  var maxInputBytes: Int
  /// Bytes of input the sessions one client made may log together.
  var maxInputBytesPerClient: Int
  /// Questions one client may have waiting for their answers.
  var queriesPerClient: Int
  /// Big hellos one client may have being encoded or waiting (`HelloWork`).
  var bigHellosPerClient: Int
  /// Big hellos waiting their turn across all clients.
  var bigHelloQueue: Int
  /// Seconds a big hello may wait for its turn.
  var bigHelloWait: Double
  /// Bytes of JSON from which a hello is big.
  var bigHelloBytes: Int
  /// Browser families one address may hold: its clients together get that many shares.
  var familiesPerAddress: Int

  init(_ limits: Limits = Limits()) {
    maxLive = limits[.maxSessions]
    idlePause = limits[.idlePause]
    maxAge = limits[.sessionMaxAge]
    parkedMaxAge = limits[.parkedMaxAge]
    perClient = limits[.sessionsPerClient]
    let share = Int(Double(limits[.maxSessions]) * limits[.sessionShare] / 100)
    perAddress = min(
      limits[.sessionsPerClient] * limits[.familiesPerAddress],
      max(limits[.sessionsPerClient], share))
    onDemandPerClient = limits[.onDemandSessionsPerClient]
    maxStepTicks = limits[.stepTicks]
    maxInputs = limits[.inputsPerSession]
    maxInputBytes = limits[.inputLogBytes]
    maxInputBytesPerClient = limits[.inputLogBytesPerClient]
    queriesPerClient = limits[.queriesPerClient]
    bigHellosPerClient = limits[.bigHellosPerClient]
    bigHelloQueue = limits[.bigHelloQueue]
    bigHelloWait = limits[.bigHelloWait]
    bigHelloBytes = limits[.bigHelloBytes]
    familiesPerAddress = limits[.familiesPerAddress]
  }
}
