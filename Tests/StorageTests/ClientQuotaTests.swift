import Testing

@testable import Storage

/// One client's live sessions counted across the processes sharing a store: two stores on one
/// database stand for processes `a` and `b`; each says what it holds itself (`heldHere`).
@Suite struct ClientQuotaTests {
  /// A session `id` made by `client` (of address `1.2.3.4`), which its process counts as the
  /// `here`-th of the client's (`address`-th of the address's) it holds, the new one included.
  static func session(
    _ id: String, client: String = "1.2.3.4", here: Int, address: Int? = nil,
    onDemand: Bool = false, onDemandHere: Int = 0
  ) -> StoredSession {
    var session = StoredSession(
      id: id, kind: "maze", config: #"{"rows":12}"#, seed: 1, token: "token-\(id)", now: 100,
      running: !onDemand, clock: onDemand ? "on-demand" : "realtime")
    session.claim = ClientClaim(
      client: client, address: "1.2.3.4", onDemand: onDemand, perClient: 2, perAddress: 3,
      perClientOnDemand: 1,
      heldHere: ClientCounts(client: here, address: address ?? here, onDemand: onDemandHere))
    return session
  }

  static func terms(_ owner: String, at now: Double) -> LeaseTerms {
    LeaseTerms(owner: owner, now: now, duration: 10)
  }

  static func refusal(_ body: () throws -> Void) -> ClientClaim.Bound? {
    do {
      try body()
      return nil
    } catch StoreError.clientQuota(let bound) {
      return bound
    } catch {
      Issue.record("unexpected \(error)")
      return nil
    }
  }

  @Test(
    "a client's sessions on every process count together, for the client and its address",
    arguments: Backend.allCases)
  func acrossProcesses(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let a = fixture.store
    let b = try fixture.reopen()
    try a.createSession(Self.session("a1", here: 1), lease: Self.terms("a", at: 100))
    try b.createSession(Self.session("b1", here: 1), lease: Self.terms("b", at: 100))
    // b's second would be the client's third: refused, and nothing stored.
    #expect(
      Self.refusal {
        try b.createSession(Self.session("b2", here: 2), lease: Self.terms("b", at: 101))
      }
        == .client)
    #expect(try b.session(id: "b2") == nil)
    // Another client (a browser family) of the address has one place left of the address's 3.
    try a.createSession(
      Self.session("a2", client: "1.2.3.4 f", here: 1, address: 2), lease: Self.terms("a", at: 101))
    #expect(
      Self.refusal {
        try b.createSession(
          Self.session("b3", client: "1.2.3.4 g", here: 1, address: 2),
          lease: Self.terms("b", at: 101))
      } == .address)
  }

  @Test(
    "a dead process's sessions stop counting when its leases run out, a parked one at once",
    arguments: Backend.allCases)
  func releasedWithTheLease(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let a = fixture.store
    let b = try fixture.reopen()
    try a.createSession(Self.session("a1", here: 1), lease: Self.terms("a", at: 100))
    try a.createSession(Self.session("a2", here: 2), lease: Self.terms("a", at: 100))
    #expect(
      Self.refusal {
        try b.createSession(Self.session("b1", here: 1), lease: Self.terms("b", at: 109))
      }
        == .client)
    // a parks a2 (its lease given up): one place is free at once.
    let a2 = try #require(try a.lease(sessionID: "a2"))
    #expect(try a.releaseLease(a2))
    try b.createSession(Self.session("b1", here: 1), lease: Self.terms("b", at: 109))
    // a dies: once a1's lease has run out (at 110), b may make the client's second there.
    #expect(
      Self.refusal {
        try b.createSession(Self.session("b2", here: 2), lease: Self.terms("b", at: 109.5))
      }
        == .client)
    try b.createSession(Self.session("b2", here: 2), lease: Self.terms("b", at: 110))
    // b adopts a1: the client's session counts again, now as b's (b counts it itself).
    #expect(try b.acquireLease(sessionID: "a1", Self.terms("b", at: 111)).lease != nil)
    #expect(
      Self.refusal {
        try a.createSession(Self.session("a3", here: 1), lease: Self.terms("a", at: 111))
      }
        == .client)
  }

  @Test("on-demand sessions count against their own bound too", arguments: Backend.allCases)
  func onDemand(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let a = fixture.store
    let b = try fixture.reopen()
    try a.createSession(
      Self.session("a1", here: 1, onDemand: true, onDemandHere: 1), lease: Self.terms("a", at: 100))
    #expect(
      Self.refusal {
        try b.createSession(
          Self.session("b1", here: 1, onDemand: true, onDemandHere: 1),
          lease: Self.terms("b", at: 100))
      } == .onDemand)
    // A realtime session still fits under the client's 2.
    try b.createSession(Self.session("b1", here: 1), lease: Self.terms("b", at: 100))
  }

  @Test(
    "without lease terms (one process alone) the store counts nothing", arguments: [Backend.sqlite])
  func alone(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    for index in 1...3 {
      try fixture.store.createSession(Self.session("s\(index)", here: 1), lease: nil)
    }
    #expect(try fixture.store.listSessions(status: nil).count == 3)
  }
}
