import Dispatch
import HTTP
import Synchronization
import Testing

@testable import Server

extension Reply {
  /// The response now, or nil when it will come later.
  var now: Response? {
    if case .response(let response) = self { return response }
    return nil
  }

  /// The response, waiting at most `seconds` for one that comes later; a wait past that is a
  /// recorded issue, answered as 504 Gateway Timeout.
  func eventually(within seconds: Int = 60) -> Response {
    switch self {
    case .response(let response):
      return response
    case .webSocket:
      return Response(status: .switchingProtocols)
    case .later(let pending):
      let done = DispatchSemaphore(value: 0)
      let box = Mutex<Response?>(nil)
      pending.whenDone { response in
        box.withLock { $0 = response }
        done.signal()
      }
      guard done.wait(timeout: .now() + .seconds(seconds)) == .success else {
        Issue.record("no response within \(seconds) s")
        return Response(status: HTTPStatus(504))
      }
      return box.withLock { $0! }
    }
  }
}
