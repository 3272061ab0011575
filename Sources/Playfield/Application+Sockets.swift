import HTTP
import Server
import Storage
import WebSocket

extension Application {
  /// `/ws/sessions/ID`: joins a session as its controller (the control token), a guest of one
  /// of its seats (`SeatToken`) or a spectator (no token).
  func sessionSocket(_ request: Request, id: SessionID, client: ClientKey? = nil) -> Reply {
    if let refusal = origins.check(request) { return .response(refusal) }
    let session: LiveSession
    do {
      session = try registry.lookup(id.description)
    } catch {
      return .response(error.response)
    }
    var role = SessionRole.spectator
    if let token = SessionAPI.token(in: request) {
      if TokenHash.matches(token: token, storedHash: session.tokenHash) {
        role = .controller
      } else if let seat = SeatToken.seat(
        presenting: token, type: session.type, tokenHash: session.tokenHash,
        generation: session.seatGeneration)
      {
        role = .guest(seat)
      } else {
        return .response(APIError(.forbidden, "the token does not control this session").response)
      }
    }
    switch WebSocketHandshake.evaluate(request, options: boundedSessionOptions) {
    case .accept(let accepted):
      let handler = SessionSocketHandler(
        session: session, role: role, inputLog: registry.inputLog, client: client,
        queries: registry.queries, maxStepCount: registry.limits.maxStepTicks)
      return .webSocket(accepted, handler)
    case .reject(let response):
      return .response(response)
    }
  }

  /// `/ws/replays/ID`: a private replay of a stored session.
  func replaySocket(_ request: Request, id: SessionID, client: ClientKey) -> Reply {
    if let refusal = origins.check(request) { return .response(refusal) }
    guard let journal else {
      return .response(APIError(.serviceUnavailable, "replays need the database").response)
    }
    switch WebSocketHandshake.evaluate(request, options: boundedSessionOptions) {
    case .accept(let accepted):
      return .webSocket(
        accepted,
        ReplaySocketHandler(
          sessionID: id.description, journal: journal, replays: replays, storeCalls: storeCalls,
          chunkSize: environment.limits[.replayChunkInputs], client: client))
    case .reject(let response):
      return .response(response)
    }
  }

  /// `/ws/batch`: one connection steps many on-demand sessions of its client's (each attached
  /// once with its control token), charged to `client`.
  func batchSocket(_ request: Request, client: ClientKey) -> Reply {
    if let refusal = origins.check(request) { return .response(refusal) }
    // NB: a step message over its bound is refused by its frame's header, before it is read
    // and parsed on the event loop (close 1009).
    var options = Self.sessionOptions
    options.configuration.maxMessageSize = environment.limits[.batchMessageBytes]
    switch WebSocketHandshake.evaluate(request, options: options) {
    case .accept(let accepted):
      return .webSocket(
        accepted,
        BatchSocketHandler(
          registry: registry, storeCalls: storeCalls, client: client,
          sessionsPerConnection: environment.limits[.batchSessionsPerConnection],
          sessionsPerMessage: environment.limits[.batchSessionsPerMessage],
          inputBounds: BatchRequest.InputBounds(
            perMessage: environment.limits[.batchInputsPerMessage],
            perSession: environment.limits[.batchInputsPerSession]),
          bigMessageBytes: environment.limits[.batchJobBytes]))
    case .reject(let response):
      return .response(response)
    }
  }

  /// `/ws/echo`: echoes every message (the conformance suite's peer).
  static func echoSocket(_ request: Request) -> Reply {
    switch WebSocketHandshake.evaluate(request, options: echoOptions) {
    case .accept(let accepted):
      return .webSocket(accepted, EchoHandler())
    case .reject(let response):
      return .response(response)
    }
  }

  /// Session channels compress when the client asks.
  static let sessionOptions = WebSocketHandshake.Options()

  /// Session, replay and compare sockets: their messages are parsed whole on the event loop as
  /// they arrive, so a message over `--session-message-bytes` is refused by its frame's header
  /// (close 1009), unread. A 1 MiB object of 80,000 keys cost 72 ms of a loop every other socket
  /// on it waited for. (`/ws/batch` has its own bound, `/ws/recipes/shopping` too; `/ws/echo`,
  /// the conformance suite's peer, parses nothing and keeps the 1 MiB default.)
  var boundedSessionOptions: WebSocketHandshake.Options {
    var options = Self.sessionOptions
    options.configuration.maxMessageSize = environment.limits[.sessionMessageBytes]
    return options
  }

  /// `/ws/echo` picks the first subprotocol offered and compresses when asked.
  static let echoOptions = WebSocketHandshake.Options(subprotocols: .firstOffered)
}
