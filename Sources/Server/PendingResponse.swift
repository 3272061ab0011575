import HTTP
import Synchronization

/// A response that another thread will finish. The handler returns it inside `.later` and
/// calls `succeed` exactly once from anywhere; later calls are ignored.
public final class PendingResponse: Sendable {
  enum State {
    case waiting((@Sendable (Response) -> Void)?)
    case done(Response)
    case delivered
  }

  private let state = Mutex(State.waiting(nil))

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
}
