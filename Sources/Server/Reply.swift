import HTTP

/// A handler's answer to a request.
public enum Reply: Sendable {
  /// The response, ready now.
  case response(Response)
  /// A response another thread will finish.
  case later(PendingResponse)
}
