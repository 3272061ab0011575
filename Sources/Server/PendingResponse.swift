import HTTP
import Synchronization
import WebSocket

/// A response that another thread will finish. The handler returns it inside `.later` and
/// calls `succeed` exactly once from anywhere; later calls are ignored.
public final class PendingResponse: Sendable {
  enum State {
    case waiting((@Sendable (Response) -> Void)?)
    case done(Response)
    case delivered
  }

  private let state = Mutex(State.waiting(nil))
  /// The WebSocket to switch to once the 101 is sent, when the answer is an upgrade.
  private let upgrade = Mutex<(WebSocketHandshake.Accepted, any WebSocketHandler)?>(nil)
  /// Whether the connection waiting for it went away, and who wants to know.
  private let abandonment = Mutex<(abandoned: Bool, callbacks: [@Sendable () -> Void])>((false, []))

  public init() {}

  /// Finishes the response.
  public func succeed(_ response: Response) {
    let callback: (@Sendable (Response) -> Void)? = state.withLock { state in
      switch state {
      case .waiting(let callback?):
        state = .delivered
        return callback
      case .waiting(nil):
        state = .done(response)
        return nil
      case .done, .delivered:
        return nil
      }
    }
    callback?(response)
  }

  /// Finishes the response as a WebSocket upgrade (an upgrade request answered off the event
  /// loop): the connection sends the handshake's 101, then hands itself to `handler`.
  public func succeed(
    upgradingTo accepted: WebSocketHandshake.Accepted, _ handler: any WebSocketHandler
  ) {
    upgrade.withLock { $0 = (accepted, handler) }
    succeed(accepted.response)
  }

  /// The upgrade `succeed(upgradingTo:_:)` gave, taken once.
  func takeUpgrade() -> (WebSocketHandshake.Accepted, any WebSocketHandler)? {
    upgrade.withLock { taken in
      defer { taken = nil }
      return taken
    }
  }

  /// Calls `callback` once with the response, at once if it is already done.
  func whenDone(_ callback: @escaping @Sendable (Response) -> Void) {
    let ready: Response? = state.withLock { state in
      switch state {
      case .waiting:
        state = .waiting(callback)
        return nil
      case .done(let response):
        state = .delivered
        return response
      case .delivered:
        return nil
      }
    }
    if let ready { callback(ready) }
  }

  /// A response that finishes when this one does, as `transform` makes it of this one's; when
  /// it is abandoned, so is this one.
  public func map(_ transform: @escaping @Sendable (Response) -> Response) -> PendingResponse {
    let mapped = PendingResponse()
    whenDone { mapped.succeed(transform($0)) }
    mapped.onAbandoned { [self] in abandon() }
    return mapped
  }

  /// The connection that waits for it closed first: nobody will read the response, so the work
  /// behind it may stop. Callbacks run once, on the caller's thread.
  public func abandon() {
    let callbacks = abandonment.withLock { state -> [@Sendable () -> Void] in
      guard !state.abandoned else { return [] }
      state.abandoned = true
      defer { state.callbacks = [] }
      return state.callbacks
    }
    for callback in callbacks { callback() }
  }

  /// Whether the connection that waited for it went away.
  public var isAbandoned: Bool { abandonment.withLock { $0.abandoned } }

  /// Calls `callback` once if the response is abandoned (at once, if it already is).
  public func onAbandoned(_ callback: @escaping @Sendable () -> Void) {
    let now = abandonment.withLock { state -> Bool in
      if state.abandoned { return true }
      state.callbacks.append(callback)
      return false
    }
    if now { callback() }
  }
}
