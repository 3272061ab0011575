import JSON

/// Which of each connection's inputs are durably stored: the `stored` watermark (docs/protocol.md).
///
/// A connection's inputs are counted in the order it sent them, from its first accepted one
/// (acknowledged, or would have been with an `id`). Each is settled once it is in a committed
/// batch of the log, or at once when its step refused it (never to be logged); the watermark
/// is how many of them, from the first, are settled. No clock and no I/O: the session reports
/// what happens and sends the notices returned.
///
/// While the server cannot store (`cannotStore`), every client that sent inputs is told so once
/// (an `unstored` notice with its watermark: inputs past it may be lost), a client that sends
/// its first input meanwhile on that input, a `flush` is answered with it at once, and a
/// `stored` notice that still comes (a commit that made it) is followed by it again, so the
/// last notice a client got always says where it stands. When storing works again
/// (`storesAgain`), every client told is sent its watermark in a `stored` notice.
struct StoredWatermarks<Client: AnyObject> {
  /// What to tell `client`: `inputs` of its inputs are settled, the log stored through `tick`
  /// when known; `id` answers its `flush` with that id. With `unstored`, the reason inputs
  /// past `inputs` are not stored now (an `unstored` notice).
  struct Notice {
    let client: Client
    let inputs: Int
    let tick: UInt64?
    let id: JSONValue?
    var unstored: String? = nil
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
    /// Told that its inputs are not stored now (since storing last stopped).
    var toldUnstored = false
  }

  private var entries: [ObjectIdentifier: Entry] = [:]
  /// Why inputs are not stored now; nil while they are.
  private(set) var unstored: String?

  /// `client` sent one more input, queued for the session. Returns the `unstored` notice when
  /// the server cannot store now and the client was not told yet.
  @discardableResult
  mutating func accepted(by client: Client) -> [Notice] {
    let key = ObjectIdentifier(client)
    entries[key, default: Entry(client: client)].accepted += 1
    guard let unstored, entries[key]?.toldUnstored == false else { return [] }
    return [tellUnstored(key, why: unstored, id: nil)]
  }

  /// The server cannot store inputs now, for `why`: every client that sent inputs is told (once
  /// per stop), its waiting flushes answered with it. Nothing when it was already known.
  mutating func cannotStore(_ why: String) -> [Notice] {
    guard unstored == nil else { return [] }
    unstored = why
    return entries.keys.flatMap { key -> [Notice] in
      let waiting = entries[key]!.flushes
      entries[key]!.flushes = []
      guard !waiting.isEmpty else { return [tellUnstored(key, why: why, id: nil)] }
      return waiting.map { tellUnstored(key, why: why, id: $0.id) }
    }
  }

  /// The server stores inputs again: every client told it could not is sent its watermark.
  mutating func storesAgain() -> [Notice] {
    guard unstored != nil else { return [] }
    unstored = nil
    return entries.keys.compactMap { key -> Notice? in
      guard let entry = entries[key], entry.toldUnstored else { return nil }
      entries[key]!.toldUnstored = false
      return Notice(client: entry.client, inputs: entry.settled, tick: nil, id: nil)
    }
  }

  /// The `unstored` notice for the client at `key` (answering the flush `id`), marked told.
  private mutating func tellUnstored(_ key: ObjectIdentifier, why: String, id: JSONValue?)
    -> Notice
  {
    entries[key]!.toldUnstored = true
    let entry = entries[key]!
    return Notice(client: entry.client, inputs: entry.settled, tick: nil, id: id, unstored: why)
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

  /// `client` asks to be told once every input it sent so far is settled: now (the notice),
  /// or later, from `applied` or `stored`; at once with the `unstored` notice while the server
  /// cannot store (and some are not settled).
  mutating func flush(_ client: Client, id: JSONValue?) -> FlushAnswer {
    let key = ObjectIdentifier(client)
    let entry = entries[key, default: Entry(client: client)]
    guard entry.settled < entry.accepted else {
      return .now(Notice(client: client, inputs: entry.settled, tick: nil, id: id))
    }
    if let unstored {
      entries[key] = entry
      return .now(tellUnstored(key, why: unstored, id: id))
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
    // NB: a commit that made it while storing is stopped: the client's last word stays that its
    // later inputs are not stored now.
    if let unstored, entry.toldUnstored {
      notices.append(tellUnstored(key, why: unstored, id: nil))
    }
    return notices
  }
}

/// Sent from whichever thread decided it (`OrderedOutbox`).
extension StoredWatermarks.Notice: Sendable where Client: Sendable {}
