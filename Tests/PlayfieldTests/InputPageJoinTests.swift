import Foundation
import HTTP
import Logging
import Storage
import Testing

@testable import Playfield

/// Two requests for the same `/inputs` page are read each for itself, never one joined to the
/// other's reading: a page asked for after an input was acknowledged must wait for that input
/// to be stored, and a reading that had begun before it would not have it.
@Suite struct InputPageJoinTests {
  @Test func twoRequestsForOnePageNeverShareAReading() throws {
    let directory = NSTemporaryDirectory() + "playfield-page-join-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try SQLiteSessionStore(path: directory + "/p.db", limits: StoreLimits())
    let journal = StorageJournal(store: store, logger: Logger(label: "test"))
    defer { journal.close() }
    let pages = InputPageResource(journal: journal, pageBytes: 1 << 20)
    let request = Request(
      method: .get, target: "/api/sessions/s/inputs?after=3",
      headers: ["Host": "test", "Authorization": "Bearer t"])
    let first = try pages.key(path: ["s"], request: request)
    let second = try pages.key(path: ["s"], request: request)
    #expect(first.session == second.session && first.after == 3 && second.after == 3)
    #expect(first.token == "t" && second.token == "t")
    // NB: the cold resources' cache joins a request to a computation of an equal key.
    #expect(first != second)
  }
}
