import Synchronization

/// Hands out a viewport's rows (or a tile's chunks of pixels), one at a time, to whichever
/// worker asks next; none once the render is cancelled.
final class RowDispenser: Sendable {
  private let next = Atomic<Int>(0)
  let rows: Int
  let cancellation: RenderCancellation?

  init(rows: Int, cancellation: RenderCancellation? = nil) {
    self.rows = rows
    self.cancellation = cancellation
  }

  /// Whether the render must stop.
  var isCancelled: Bool { cancellation?.reason != nil }

  /// The next row nobody has taken, or nil when all are taken or the render must stop.
  func take() -> Int? {
    if isCancelled { return nil }
    let row = next.wrappingAdd(1, ordering: .relaxed).oldValue
    return row < rows ? row : nil
  }
}
