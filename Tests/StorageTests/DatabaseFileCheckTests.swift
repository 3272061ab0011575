import Foundation
import Testing

@testable import Storage

@Suite("The database file is still the one opened")
struct DatabaseFileCheckTests {
  @Test("same, then missing after deletion, then replaced by another file")
  func lifecycle() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    #expect(fixture.store.fileCheck == .same)
    try FileManager.default.removeItem(atPath: fixture.path)
    #expect(fixture.store.fileCheck == .missing)
    try Data("other".utf8).write(to: URL(fileURLWithPath: fixture.path))
    #expect(fixture.store.fileCheck == .replaced)
  }
}
