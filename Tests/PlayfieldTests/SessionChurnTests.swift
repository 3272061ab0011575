import HTTP
import JSON
import Testing

@testable import Playfield

/// Sessions created and deleted over and over leave nothing behind (the soak's churn).
@Suite struct SessionChurnTests {
  @Test func deletedSessionsFreeTheirRegistryAndQuotaPlaces() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    let registry = app.application.registry
    // More rounds than one client may hold at once: a place not given back would refuse one.
    let rounds = registry.quota.perClient * 3
    for round in 0..<rounds {
      let kinds = Demo.sessionKinds
      let kind = kinds[round % kinds.count]
      let created = app.request(.post, "/api/sessions", json: ["kind": .string(kind)])
      try #require(created.status == .created, "round \(round)")
      let session = try JSONValue.parse(created.body)
      let id = try #require(session["id"]?.stringValue)
      let token = try #require(session["token"]?.stringValue)
      app.tick(3)
      #expect(registry.count == 1 && registry.quota.count(forAddress: "127.0.0.1") == 1)
      let deleted = app.request(
        .delete, "/api/sessions/\(id)", headers: ["Authorization": "Bearer \(token)"])
      #expect(deleted.status == .noContent, "round \(round)")
    }
    #expect(registry.count == 0)
    #expect(registry.quota.count(forAddress: "127.0.0.1") == 0)
    #expect(try app.json(.get, "/api/sessions")["count"] == 0)
  }
}
