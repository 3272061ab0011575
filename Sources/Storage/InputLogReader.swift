/// Reads one session's input log in order, a chunk of at most `chunkSize` inputs at a time, so
/// what it holds is bounded by the chunk, not by the log's length.
///
/// Ask for ticks in increasing order; `restart(after:)` goes back (or jumps ahead) for a seek.
/// With `wait` false a read never blocks: when another read holds the store's reading
/// connection, `inputs(at:)` answers nil and the caller asks again later.
///
/// A reader of a log that may be compacted while it reads (`compacting`: an on-demand
/// session's) checks after each chunk that the log still starts before the chunk, and throws
/// `LogCompactedError` when inputs it needed are gone.
public struct InputLogReader: Sendable {
  /// The session whose log this reads.
  public let sessionID: String
  /// Most inputs read from the store at once, and held.
  public let chunkSize: Int
  private let store: any SessionStore
  private let wait: Bool
  private let compacting: Bool
  /// The chunk in hand and the index of its next input.
  private var chunk: [LoggedInput] = []
  private var next = 0
  /// Where the next chunk starts.
  private var position: LogPosition
  /// Whether the last chunk read was the end of the log.
  private var atEnd = false
  /// A tick's inputs gathered before a busy store interrupted the read.
  private var partial: [LoggedInput] = []
  /// The most inputs read from the store and held at once.
  public private(set) var mostHeld = 0
  /// Chunks read so far.
  public private(set) var chunksRead = 0

  /// A reader of `sessionID`'s inputs after tick `after`.
  public init(
    store: any SessionStore, sessionID: String, chunkSize: Int, after tick: Int64 = .min,
    wait: Bool = true, compacting: Bool = false
  ) {
    self.compacting = compacting
    self.store = store
    self.sessionID = sessionID
    self.chunkSize = max(1, chunkSize)
    self.wait = wait
    self.position = .after(tick: tick)
  }

  /// Whether the next `inputs(at:)` may have to read the store: the chunk in hand is used up
  /// and the log goes on.
  public var wouldRead: Bool { next == chunk.count && !atEnd }

  /// The inputs logged at `tick` in seq order (those of earlier ticks not yet read are
  /// skipped); nil when the store was busy, so ask again. With `mayRead` false it reads only
  /// the chunk in hand, and answers nil where it would have to read the store (`wouldRead`);
  /// what it gathered of the tick so far is kept for the next call either way.
  public mutating func inputs(at tick: Int64, mayRead: Bool = true) throws -> [LoggedInput]? {
    partial.removeAll { $0.tick != tick }
    while true {
      if next == chunk.count {
        guard !atEnd else { break }
        guard mayRead, try readChunk() else { return nil }
        continue
      }
      let input = chunk[next]
      if input.tick > tick { break }
      next += 1
      if input.tick == tick { partial.append(input) }
    }
    defer { partial.removeAll() }
    return partial
  }

  /// Reads from just after `tick` again, dropping the chunk in hand (a seek).
  public mutating func restart(after tick: Int64) {
    chunk = []
    next = 0
    partial = []
    atEnd = false
    position = .after(tick: tick)
  }

  /// Replaces the chunk in hand with the next one; false when the store was busy.
  private mutating func readChunk() throws -> Bool {
    guard
      let read = try store.inputs(
        sessionID: sessionID, after: position, limit: chunkSize, wait: wait)
    else { return false }
    if compacting {
      // NB: read after the chunk: a log that still starts before the chunk's first tick was
      // whole when the chunk was read (compaction only ever drops a prefix).
      guard let start = try store.logStart(sessionID: sessionID, wait: wait) else { return false }
      // (Inputs are logged at tick 1 and later.)
      let needed = max(1, position.seq == .max ? position.tick + 1 : position.tick)
      guard start < needed else {
        throw LogCompactedError(sessionID: sessionID, tick: needed, logStart: start)
      }
    }
    chunk = read
    next = 0
    chunksRead += 1
    mostHeld = max(mostHeld, chunk.count)
    atEnd = read.count < chunkSize
    if let last = read.last { position = LogPosition(tick: last.tick, seq: last.seq) }
    return true
  }
}
