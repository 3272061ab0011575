import JSON

/// Which of each connection's inputs are durably stored: the `stored` watermark (docs/protocol.md).
///
/// A connection's inputs are counted in the order it sent them, from its first accepted one
/// (acknowledged, or would have been with an `id`). Each is settled once it is in a committed
/// batch of the log, or at once when its step refused it (never to be logged); the watermark
/// is how many of them, from the first, are settled. No clock and no I/O: the session reports
/// what happens and sends the notices returned.
struct StoredWatermarks<Client: AnyObject> {
  /// What to tell `client`: `inputs` of its inputs are settled, the log stored through `tick`
  /// when known; `id` answers its `flush` with that id.
  struct Notice {
    let client: Client
    let inputs: Int
    let tick: UInt64?
    let id: JSONValue?
  }

  private struct Entry {
    let client: Client
    /// Inputs accepted from the client so far.
    var accepted = 0
    /// The watermark last told (or due).
    var settled = 0
    /// Applied inputs not yet settled: the tick they were applied at, the count through them,
    /// and whether any of them waits for the log (false: refused, settled behind the others).
    var applied: [(tick: UInt64, through: Int, logged: Bool)] = []
    /// Applied so far (logged or refused).
    var appliedCount = 0
    /// `flush` requests waiting: the count they wait for, and their id.
    var flushes: [(through: Int, id: JSONValue?)] = []
  }

  private var entries: [ObjectIdentifier: Entry] = [:]

  /// `client` sent one more input, queued for the session.
  mutating func accepted(by client: Client) {
    entries[ObjectIdentifier(client), default: Entry(client: client)].accepted += 1
  }

  /// An input counted by `accepted(by:)` was not queued after all.
  mutating func withdrawn(by client: Client) {
    entries[ObjectIdentifier(client)]?.accepted -= 1
  }

  /// The session applied `logged + refused` of `client`'s inputs at `tick`, in order; those
  /// `logged` are queued for the log. Returns what to tell at once (refused inputs with
  /// nothing before them waiting).
  mutating func applied(logged: Int, refused: Int, by client: Client, at tick: UInt64)
    -> [Notice]
  {
    let key = ObjectIdentifier(client)
    guard var entry = entries[key] else { return [] }
    entry.appliedCount += logged + refused
    entry.applied.append((tick, entry.appliedCount, logged > 0))
    entries[key] = entry
    return settle(key, through: nil)
  }

  /// The session's log is stored through `tick`: every input applied at or before it is.
  mutating func stored(through tick: UInt64) -> [Notice] {
    entries.keys.flatMap { settle($0, through: tick) }
  }

  /// How many `flush` requests of one connection may wait at once: a page has one in flight;
  /// past this bound a flush is refused (`too-many`), so that flushes sent while nothing is
  /// stored (a stopped session) cannot grow the server's memory.
  static var maxWaitingFlushes: Int { 16 }

  /// What became of a `flush`.
  enum FlushAnswer {
    /// Answered now: every input the client sent is settled.
    case now(Notice)
    /// Answered later, from `applied` or `stored`.
    case waiting
    /// `maxWaitingFlushes` of the client's flushes wait already.
    case tooMany
  }

  /// `client` asks to be told once every input it sent so far is settled.
  mutating func flush(_ client: Client, id: JSONValue?) -> FlushAnswer {
    let key = ObjectIdentifier(client)
    let entry = entries[key, default: Entry(client: client)]
    guard entry.settled < entry.accepted else {
      return .now(Notice(client: client, inputs: entry.settled, tick: nil, id: id))
    }
    guard entry.flushes.count < Self.maxWaitingFlushes else { return .tooMany }
    entries[key, default: entry].flushes.append((entry.accepted, id))
    return .waiting
  }

  /// The client left: nothing more is told to it.
  mutating func left(_ client: Client) {
    entries[ObjectIdentifier(client)] = nil
  }

  /// Settles the client's applied inputs that are refused, or stored (at or before `tick`),
  /// from the first; one notice when the watermark moved, and one per flush it answers.
  private mutating func settle(_ key: ObjectIdentifier, through tick: UInt64?) -> [Notice] {
    guard var entry = entries[key] else { return [] }
    var moved = false
    while let first = entry.applied.first,
      !first.logged || tick.map({ first.tick <= $0 }) ?? false
    {
      entry.applied.removeFirst()
      entry.settled = first.through
      moved = true
    }
    guard moved else { return [] }
    var notices: [Notice] = []
    while let flush = entry.flushes.first, flush.through <= entry.settled {
      entry.flushes.removeFirst()
      notices.append(Notice(client: entry.client, inputs: entry.settled, tick: tick, id: flush.id))
    }
    if notices.isEmpty {
      notices.append(Notice(client: entry.client, inputs: entry.settled, tick: tick, id: nil))
    }
    entries[key] = entry
    return notices
  }
}
