import JSON
import Simulation
import Storage
import Synchronization

@testable import Playfield

/// A journal that keeps the inputs it is told to log, in order, and ignores the rest.
final class RecordingJournal: SessionJournal {
  private let logged = Mutex<[JSONValue]>([])
  private let fenced = Mutex(false)

  /// Whether the session may not step (`mayApply` false), as when its lease is about to run out.
  var isFenced: Bool {
    get { fenced.withLock { $0 } }
    set { fenced.withLock { $0 = newValue } }
  }

  /// The ticks of every progress published so far, in order.
  var progressTicks: [UInt64] { published.withLock { $0 } }
  private let published = Mutex<[UInt64]>([])

  /// Every input logged so far.
  var inputs: [JSONValue] { logged.withLock { $0 } }

  func created(
    sessionID: String, kind: String, config: JSONValue, seed: UInt64, token: String, now: Double,
    clock: SessionClock, owner: String?, claim: ClientClaim?
  ) throws {}
  func inputs(sessionID: String, tick: UInt64, inputs: [CheckedInput]) {
    logged.withLock { $0 += inputs.map(\.json) }
  }
  func progress(sessionID: String, running: Bool, tick: UInt64, now: Double) {
    published.withLock { $0.append(tick) }
  }
  func snapshot(sessionID: String, tick: UInt64, state: [UInt8]) {}
  func deleted(sessionID: String) {}
  func mayApply(sessionID: String) -> Bool { !isFenced }
}
