/// Turns among keys (addresses, or the clients of one address) by the time each has used:
/// the next turn is the waiting key that has used the least, ties in the order they waited
/// (so with equal costs it is plain rotation). A key that starts waiting again is not owed
/// the time it spent idle: it starts at the time of the last turn given (`now`), or above
/// when its own last slices overran that (start-time fair queueing, an equivalent of deficit
/// round robin with a quantum as small as one slice).
///
/// Pure: `StepRotation` says who waits, takes turns and charges what each slice cost.
struct FairTurns<Key: Hashable> {
  /// Keys waiting, in the order they came (or last had a turn).
  private(set) var waiting: [Key] = []
  /// Nanoseconds each key has used, on one scale with `now`; forgotten for keys that stopped
  /// waiting once `now` has passed them (they would start at `now` anyway).
  private var used: [Key: UInt64] = [:]
  /// The used time of the key given the last turn: where a key that starts waiting begins.
  private(set) var now: UInt64 = 0

  /// Most idle keys remembered with time owed; past it all of them are forgiven.
  static var idleBound: Int { 4096 }

  /// Whether some key that does not wait has used more than `now` (it owes time).
  var owesTime: Bool { used.contains { $0.value > now && !waiting.contains($0.key) } }

  var isEmpty: Bool { waiting.isEmpty }

  /// `key` waits for turns (no effect when it already does).
  mutating func wait(_ key: Key) {
    guard !waiting.contains(key) else { return }
    used[key] = max(used[key] ?? now, now)
    waiting.append(key)
  }

  /// `key` no longer waits (its slice may still run: what it used is kept, to be charged).
  mutating func leave(_ key: Key) {
    waiting.removeAll { $0 == key }
  }

  /// The waiting key whose turn it is (least used, first in line among equals), moved to the
  /// back of the line; nil when none waits.
  mutating func next() -> Key? {
    guard var best = waiting.indices.first else { return nil }
    for index in waiting.indices.dropFirst()
    where used[waiting[index], default: now] < used[waiting[best], default: now] {
      best = index
    }
    let key = waiting.remove(at: best)
    waiting.append(key)
    now = max(now, used[key, default: now])
    if used.count > 2 * waiting.count + 64 { forget() }
    return key
  }

  /// Forgets the keys that do not wait and owe nothing; past `idleBound` idle keys, all idle
  /// keys. NB: a key whose slice still runs when it is forgotten is charged from `now`.
  private mutating func forget() {
    let kept = Set(waiting)
    used = used.filter { kept.contains($0.key) || $0.value > now }
    if used.count > waiting.count + Self.idleBound {
      used = used.filter { kept.contains($0.key) }
    }
  }

  /// Adds what a turn of `key` cost.
  mutating func charge(_ key: Key, nanoseconds: UInt64) {
    let (sum, overflow) = used[key, default: now].addingReportingOverflow(nanoseconds)
    used[key] = overflow ? .max : sum
  }

  /// Nanoseconds `key` has used beyond the current turn's start (0 when not owing).
  func owed(by key: Key) -> UInt64 {
    guard let mine = used[key], mine > now else { return 0 }
    return mine - now
  }
}
