import Synchronization

/// Bytes that the WebSocket connections of one address group have queued for their peers
/// together (`WebSocketChannel` adds and takes back its own), shared by their slots: what
/// `HTTPServer.Configuration.maxQueuedBytesPerAddress` bounds.
final class QueuedBytes: Sendable {
  private let bytes = Atomic<Int>(0)

  var total: Int { bytes.load(ordering: .relaxed) }

  func add(_ delta: Int) {
    bytes.add(delta, ordering: .relaxed)
  }
}
