import Synchronization

/// Bytes that the connections of one address group have queued for their peers together
/// (`WebSocketChannel` and `HTTPChannel` add and take back their own), shared by their slots: what
/// `HTTPServer.Configuration.maxQueuedBytesPerAddress` bounds.
final class QueuedBytes: Sendable {
  private let bytes = Atomic<Int>(0)

  var total: Int { bytes.load(ordering: .relaxed) }

  func add(_ delta: Int) {
    bytes.add(delta, ordering: .relaxed)
  }
}
