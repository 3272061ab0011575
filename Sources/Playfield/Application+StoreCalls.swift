import HTTP
import Server

extension Application {
  /// On a shared store, a request for a session that is not live here may adopt it, which
  /// waits on the database: it is answered from `storeCalls`, off the event loop, with what
  /// `answer` replies there, made final by `finish`; a WebSocket upgrade too (the worker's
  /// `.webSocket` reply goes back to the event loop, which sends the 101). Nil when the request
  /// needs no store call (the session is live here, or the store is this process's alone).
  func offEventLoop(
    segments: [String], request: Request, finish: @escaping @Sendable (Response) -> Response,
    answer: @escaping @Sendable () -> Reply
  ) -> Reply? {
    guard journal?.leases != nil,
      let id = Self.sessionID(in: segments), registry.live.withLock({ $0[id] }) == nil
    else { return nil }
    return storeCalls.answer {
      switch answer() {
      case .response(let response): .response(finish(response))
      case .later(let pending): .later(pending.map(finish))
      case let reply: reply
      }
    }
  }

  /// `GET /api/sessions`: on a shared store the listing reads the database, so it is worked
  /// out on a store worker.
  func listSessions() -> Reply {
    guard journal?.leases != nil else { return .response(sessionAPI.list()) }
    return storeCalls.answer { [sessionAPI] in .response(sessionAPI.list()) }
  }
}
