/// A place in a session's input log: just after the input logged at `tick` with `seq`.
public struct LogPosition: Sendable, Equatable {
  /// The tick of the last input passed.
  public var tick: Int64
  /// The seq of the last input passed within its tick.
  public var seq: Int64

  /// Makes a position just after the input at (`tick`, `seq`).
  public init(tick: Int64, seq: Int64) {
    self.tick = tick
    self.seq = seq
  }

  /// The position after every input of `tick` and before those of the next.
  public static func after(tick: Int64) -> LogPosition {
    LogPosition(tick: tick, seq: .max)
  }
}
