import HTTP

@testable import Server

extension WebSocket {
  /// A connection that is never opened (its loop never runs): what a hub sends it only queues.
  static func unopened(on loop: EventLoop) -> WebSocket {
    WebSocket(
      request: Request(method: .get, target: "/ws", headers: HTTPHeaders(), body: []),
      remoteAddress: "127.0.0.1", subprotocol: nil, compressionWindowBits: nil, loop: loop)
  }
}
