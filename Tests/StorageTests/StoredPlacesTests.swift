import Testing

@testable import Storage

/// The store's places are counted per owner and per address: past either, with the store full,
/// or with the store nearly full and the address holding at least as many as places are free,
/// a session with an owner is refused, and nobody's stored session is deleted for it.
@Suite struct StoredPlacesTests {
  private func session(_ id: String, owner: String?, now: Double) -> StoredSession {
    var session = StoreFixture.session(id, now: now)
    session.owner = owner
    return session
  }

  @Test(arguments: Backend.allCases) func ownersArePerClientAndPerAddress(_ backend: Backend)
    throws
  {
    var limits = StoreLimits()
    limits.maxSessions = 7
    limits.maxSessionsPerClient = 2
    limits.maxSessionsPerAddress = 3
    let fixture = try StoreFixture(backend, limits: limits)
    defer { fixture.remove() }
    let store = fixture.store
    try store.createSession(session("victim", owner: "10.0.0.9", now: 1))
    try store.updateSession(
      SessionProgress(sessionID: "victim", status: .paused, tick: 0, updatedAt: 1))
    try store.createSession(session("a1", owner: "10.0.0.1", now: 2))
    try store.createSession(session("a2", owner: "10.0.0.1", now: 3))
    #expect(throws: StoreError.tooManySessionsForClient(limit: 2)) {
      try store.createSession(session("a3", owner: "10.0.0.1", now: 4))
    }
    // Another family of the same address is another client, within the address's share.
    try store.createSession(session("f1", owner: "10.0.0.1 fam", now: 5))
    #expect(throws: StoreError.tooManySessionsForAddress(limit: 3)) {
      try store.createSession(session("f2", owner: "10.0.0.1 fam", now: 6))
    }
    // A prefix of an address is not that address.
    try store.createSession(session("b1", owner: "10.0.0.10", now: 7))
    try store.createSession(session("c1", owner: "10.0.0.2", now: 8))
    // One place is free: an address holding at least as many gets no more (issue 35: eight
    // addresses' families filled the store, and a ninth client's create got 503)...
    #expect(throws: StoreError.storeReserved(held: 1, free: 1)) {
      try store.createSession(session("c2", owner: "10.0.0.2", now: 9))
    }
    // ...the last place goes to an address holding none.
    try store.createSession(session("d1", owner: "10.0.0.3", now: 10))
    // The store is full: the stalest stopped session is another's, so it stays.
    #expect(throws: StoreError.tooManySessions(limit: 7)) {
      try store.createSession(session("e1", owner: "10.0.0.4", now: 11))
    }
    #expect(throws: StoreError.tooManySessions(limit: 7)) {
      try store.createSession(StoreFixture.session("nobody", now: 12))
    }
    #expect(try store.session(id: "victim")?.owner == "10.0.0.9")
    #expect(try store.listSessions().count == 7)
    // Deleting its own makes room for its owner again.
    try store.deleteSession(id: "a1")
    try store.deleteSession(id: "f1")
    try store.createSession(session("a3", owner: "10.0.0.1", now: 13))
  }
}
