import Foundation
import Testing

@testable import Storage

/// New SQLite files get 16 KiB pages; files made before keep theirs and work as they did.
@Suite struct PageSizeTests {
  @Test func aFreshStoreFileHas16KiBPagesAndAnEmptyWAL() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let file = try Database(path: fixture.path, options: Database.Options(readOnly: true))
    #expect(try file.query("PRAGMA page_size") { $0.int64(0) } == [16_384])
    #expect(try file.query("PRAGMA auto_vacuum") { $0.int64(0) } == [2])  // INCREMENTAL
    // NB: the migrations were checkpointed one by one, and the WAL emptied after them.
    let wal = try FileManager.default.attributesOfItem(atPath: fixture.path + "-wal")
    #expect(wal[.size] as? Int == 0)
  }

  @Test func aFileWith4KiBPagesKeepsThemAndWorks() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("old.db")
    // An older build's file: 4 KiB pages, and not every migration of this one applied yet.
    do {
      let old = try Database(path: path, options: Database.Options(newFilePageSize: 4096))
      try old.migrate(Array(Schema.migrations.dropLast(2)))
    }
    let store = try SQLiteSessionStore(path: path)
    try store.createSession(StoreFixture.session("s"))
    let inputs = StoreFixture.inputs("s", count: 3000)
    try store.appendInputs(inputs)
    #expect(try store.inputs(sessionID: "s") == inputs)
    #expect(try store.listSessions().map(\.id) == ["s"])
    let pageSize = try store.withReader { try $0.query("PRAGMA page_size") { $0.int64(0) } }
    #expect(pageSize == [4096])
    #expect(try store.withReader { try $0.appliedMigrations() } == Schema.migrations.map(\.name))
  }
}
