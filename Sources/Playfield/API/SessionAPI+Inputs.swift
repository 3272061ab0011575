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
