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
///
/// A reader whose reads run elsewhere (a store worker) asks for the next chunk with `readNext`
/// on a copy and `take`s the answer: once half the chunk in hand is used (`wantsReadAhead`), so
/// that the next one is there when this one ends. It then holds at most two chunks.
public struct InputLogReader: Sendable {
  /// A chunk of the log read after `from` by `readNext`, for the reader to `take`.
  public struct ChunkRead: Sendable {
    let from: LogPosition
    let inputs: [LoggedInput]
  }

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
  /// The chunk after it, read ahead.
  private var ahead: [LoggedInput]?
  /// Where the next chunk starts.
  private var position: LogPosition
  /// Whether the last chunk read (the one in hand, or the one ahead) was the end of the log.
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
  public var wouldRead: Bool { next == chunk.count && ahead == nil && !atEnd }

  /// Whether the next chunk should be read ahead now: half the chunk in hand is used, none is
  /// read ahead, and the log goes on.
  public var wantsReadAhead: Bool {
    ahead == nil && !atEnd && !chunk.isEmpty && next * 2 >= chunk.count
  }

  /// The inputs logged at `tick` in seq order (those of earlier ticks not yet read are
  /// skipped); nil when the store was busy, so ask again. With `mayRead` false it reads only
  /// the chunk in hand, and answers nil where it would have to read the store (`wouldRead`);
  /// what it gathered of the tick so far is kept for the next call either way.
  public mutating func inputs(at tick: Int64, mayRead: Bool = true) throws -> [LoggedInput]? {
    partial.removeAll { $0.tick != tick }
    while true {
      if next == chunk.count {
        if let read = ahead {
          (chunk, next, ahead) = (read, 0, nil)
          continue
        }
        guard !atEnd else { break }
        guard mayRead, let read = try readNext() else { return nil }
        take(read)
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
    ahead = nil
    partial = []
    atEnd = false
    position = .after(tick: tick)
  }

  /// Reads the chunk after the last one this reader read, changing nothing (a copy may run it
  /// on another thread); nil when the store was busy.
  public func readNext() throws -> ChunkRead? {
    guard
      let read = try store.inputs(
        sessionID: sessionID, after: position, limit: chunkSize, wait: wait)
    else { return nil }
    if compacting {
      // NB: read after the chunk: a log that still starts before the chunk's first tick was
      // whole when the chunk was read (compaction only ever drops a prefix).
      guard let start = try store.logStart(sessionID: sessionID, wait: wait) else { return nil }
      // (Inputs are logged at tick 1 and later.)
      let needed = max(1, position.seq == .max ? position.tick + 1 : position.tick)
      guard start < needed else {
        throw LogCompactedError(sessionID: sessionID, tick: needed, logStart: start)
      }
    }
    return ChunkRead(from: position, inputs: read)
  }

  /// Takes a chunk `readNext` read: as the chunk in hand when that is used up, else as the one
  /// ahead. A chunk read from elsewhere (the reader restarted since, or took it already) is
  /// dropped: false.
  @discardableResult
  public mutating func take(_ read: ChunkRead) -> Bool {
    guard read.from == position, ahead == nil, !atEnd else { return false }
    if next == chunk.count {
      (chunk, next) = (read.inputs, 0)
    } else {
      ahead = read.inputs
    }
    chunksRead += 1
    mostHeld = max(mostHeld, chunk.count + (ahead?.count ?? 0))
    atEnd = read.inputs.count < chunkSize
    if let last = read.inputs.last { position = LogPosition(tick: last.tick, seq: last.seq) }
    return true
  }
}
