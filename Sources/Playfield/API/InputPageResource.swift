import CPosix
import HTTP
import JSON
import Server
import Storage
import Synchronization
import Tiles

/// `GET /api/sessions/ID/inputs?after=TICK`: the logged inputs, by tick, oldest first, in pages
/// of whole ticks of at most `SessionAPI.inputsPage` inputs and `pageBytes` bytes (unless one
/// tick alone is larger); `more` says whether later ticks follow, and `logStart` the tick the
/// kept log starts after (0, or a compacted on-demand session's earliest kept snapshot: its
/// inputs at or before it are gone). It names who sent what (the painters of a canvas), so it
/// needs the session's control token.
///
/// A cold resource that is never cached (each page reads the log as it is now): the one
/// `ColdResourceService` reads it on a niced worker and charges each page to its reader, as it
/// does tiles and sphere packings. Never joined either: each request is read for itself, after
/// its own wait for the session's queued writes (a request joining one whose read had begun
/// got a page without the inputs acknowledged in between).
struct InputPageResource: ColdResource {
  /// One page: which session, after which tick, the token that must control it, and which
  /// request asks (`asked`: no two requests share a key, so none joins another's reading).
  struct Key: Hashable, Sendable {
    var session: String
    var after: Int64
    var token: String
    var asked: UInt64
  }

  /// Requests for pages so far (`Key.asked`).
  private static let requests = Atomic<UInt64>(0)

  let journal: StorageJournal
  /// Most bytes of input text in a page.
  let pageBytes: Int

  var errorStyle: ErrorStyle { .json }

  /// The thread pages are read on, niced below the game loop and the event loops.
  static let pool = RenderPool(
    threads: 1, name: "playfield-input-pages",
    prepare: { _ = cposix_nice_this_thread(StepScheduler.niceness) })

  var wording: ColdWording {
    ColdWording(
      tooManyFromClient:
        "you have too many input-log pages being read (--input-pages-per-client); wait for "
        + "them first",
      busy: "the input log is busy (--input-page-queue, --input-page-wait); try again shortly",
      failed: "the page could not be read")
  }

  /// `path` is the session id the route parsed.
  func key(path: ArraySlice<String>, request: Request) throws(ColdResourceError) -> Key {
    guard let token = SessionAPI.token(in: request) else {
      throw ColdResourceError(
        .unauthorized, "the input log needs the session's token",
        headers: ["WWW-Authenticate": "Bearer"])
    }
    let query: QueryParameters
    do {
      query = try QueryParameters(request.query)
      try query.requireDistinctNames()
    } catch {
      throw ColdResourceError(error.status, error.message)
    }
    var after: Int64 = 0
    if let text = query["after"] {
      guard let value = Int64(text), value >= 0 else {
        throw ColdResourceError(.badRequest, "after must be a tick, 0 or more", field: "after")
      }
      after = value
    }
    let asked = Self.requests.add(1, ordering: .relaxed).newValue
    return Key(session: path.joined(), after: after, token: token, asked: asked)
  }

  func headers(for key: Key) -> HTTPHeaders {
    Response.json(.null).headers
  }

  func compute(_ key: Key, work: inout ColdWork) throws -> [UInt8] {
    do {
      try journal.stored(sessionID: key.session, timeout: 5)
    } catch {
      throw ColdResourceError(.serviceUnavailable, error.description, headers: ["Retry-After": "1"])
    }
    do {
      guard let stored = try journal.store.session(id: key.session) else {
        throw ColdResourceError(.notFound, "no stored session \(key.session)")
      }
      guard TokenHash.matches(token: key.token, storedHash: stored.tokenHash) else {
        throw ColdResourceError(.forbidden, "the token does not control this session")
      }
      let (page, more) = try work.measure("read") {
        try SessionAPI.page(
          of: key.session, after: key.after, in: journal.store, maxBytes: pageBytes)
      }
      // NB: read after the page: its inputs after this tick are whole (a compaction meanwhile
      // drops only inputs at or before the tick it names).
      let logStart = try journal.store.logStart(sessionID: key.session, wait: true) ?? 0
      // NB: a packed row that holds the log start keeps the ticks before it (they replay
      // nothing): a page holds only the inputs after it, as before packing.
      let items: [JSONValue] = page.filter { $0.tick > logStart }.map { input in
        .object([
          "tick": .number(Double(input.tick)),
          "input": (try? JSONValue.parse(input.input)) ?? .null,
        ])
      }
      return Response.json(
        .object([
          "id": .string(key.session), "inputs": .array(items), "more": .bool(more),
          "logStart": .number(Double(logStart)),
        ])
      ).body
    } catch let error as ColdResourceError {
      throw error
    } catch {
      let api = APIError(storage: error)
      throw ColdResourceError(api.status, api.message, field: api.field)
    }
  }
}
