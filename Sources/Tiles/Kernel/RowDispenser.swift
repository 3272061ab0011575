import Synchronization

/// Hands out a viewport's rows, one at a time, to whichever worker asks next.
final class RowDispenser: Sendable {
  private let next = Atomic<Int>(0)
  let rows: Int

  init(rows: Int) {
    self.rows = rows
  }

  /// The next row nobody has taken, or nil when all are taken.
  func take() -> Int? {
    let row = next.wrappingAdd(1, ordering: .relaxed).oldValue
    return row < rows ? row : nil
  }
}
