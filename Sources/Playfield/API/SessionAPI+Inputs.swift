import Dispatch
import HTTP
import JSON
import Server
import Storage

extension SessionAPI {
  /// Most inputs in one page of `GET /api/sessions/ID/inputs`.
  static let inputsPage = 10_000
  /// Inputs read from the store at a time while a page is made.
  static let inputsChunk = 1024

  /// `GET /api/sessions/ID/inputs?after=TICK`: the logged inputs, by tick, oldest first, in
  /// pages of whole ticks of at most `inputsPage` inputs and `pageBytes` bytes (unless one
  /// tick alone is larger); `more` says whether later ticks follow. Made off the event loop,
  /// through `pages`, which charges each page to `client`.
  func inputs(_ request: Request, id: SessionID, client: ClientKey, pages: FairWork, pageBytes: Int)
    -> Reply
  {
    let id = id.description
    guard let journal = registry.journal as? StorageJournal else {
      return .response(APIError(.serviceUnavailable, "the input log needs the database").response)
    }
    var after: Int64 = 0
    do {
      if let text = try QueryParameters(request.query)["after"] {
        guard let value = Int64(text), value >= 0 else {
          return .response(
            APIError(.badRequest, "after must be a tick, 0 or more", field: "after").response)
        }
        after = value
      }
    } catch {
      return .response(error.response)
    }
    return pages.submit(client: client) { [after] in
      _ = journal.writer.flush(timeout: 5)
      do {
        guard try journal.store.session(id: id) != nil else {
          return APIError(.notFound, "no stored session \(id)").response
        }
        let (page, more) = try Self.page(
          of: id, after: after, in: journal.store, maxBytes: pageBytes)
        let items: [JSONValue] = page.map { input in
          .object([
            "tick": .number(Double(input.tick)),
            "input": (try? JSONValue.parse(input.input)) ?? .null,
          ])
        }
        return .json(
          .object(["id": .string(id), "inputs": .array(items), "more": .bool(more)]))
      } catch {
        return APIError(storage: error).response
      }
    }
  }

  /// The inputs after `after`, whole ticks only, up to `inputsPage` inputs and `maxBytes` of
  /// input text (a first tick larger than that alone is given whole), read in chunks so that
  /// no more than one page and one chunk is held; and whether more ticks follow.
  static func page(of id: String, after: Int64, in store: any SessionStore, maxBytes: Int)
    throws -> (inputs: [LoggedInput], more: Bool)
  {
    var page: [LoggedInput] = []
    var bytes = 0
    var position = LogPosition.after(tick: after)
    while true {
      let chunk =
        try store.inputs(sessionID: id, after: position, limit: inputsChunk, wait: true) ?? []
      for input in chunk {
        let full = page.count >= inputsPage || bytes + input.input.utf8.count > maxBytes
        if full, let last = page.last {
          let onlyOneTick = page.first?.tick == last.tick
          guard input.tick == last.tick, onlyOneTick else {
            // Ends at a tick boundary: the next page starts `after` the last whole tick.
            if input.tick == last.tick { page.removeAll { $0.tick == last.tick } }
            return (page, true)
          }
        }
        page.append(input)
        bytes += input.input.utf8.count
      }
      guard chunk.count == inputsChunk, let last = chunk.last else { return (page, false) }
      position = LogPosition(tick: last.tick, seq: last.seq)
    }
  }
}
