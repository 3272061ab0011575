import Foundation
import JSON
import Storage
import Synchronization
import Testing

@testable import Playfield

/// A family id of the shape the server makes: 22 URL-safe base64 characters.
private func family(_ address: Int, _ index: Int) -> String {
  let digits = "\(address)x\(index)"
  return String(repeating: "f", count: 22 - digits.count) + digits
}

@Suite("The global session cap is shared: a few addresses cannot fill it")
struct SessionShareTests {
  /// An app whose session ids are random (the test app's counter repeats every 8 sessions).
  private func app() throws -> TestApplication {
    try TestApplication(database: false) {
      $0.random = { count in (0..<count).map { _ in UInt8.random(in: .min ... .max) } }
    }
  }

  /// Sessions `clients` manage to create, `perClient` tries each, in turns.
  private func fill(_ app: TestApplication, _ clients: [ClientKey], perClient: Int) -> Int {
    var made = 0
    for _ in 0..<perClient {
      for client in clients {
        let created = try? app.application.registry.create(
          kind: "maze", config: .object([:]), client: client)
        if created != nil { made += 1 }
      }
    }
    return made
  }

  @Test("an address gets at most its share of --max-sessions, all its families together")
  func addressShare() throws {
    #expect(SessionLimits(Limits()).perAddress == 32, "12.5 % of 256")
    var small = Limits()
    small[.maxSessions] = 3
    small[.sessionsPerClient] = 2
    #expect(SessionLimits(small).perAddress == 2, "never below one client's quota")
  }

  @Test("four addresses x four families x 16 sessions leave room for everyone else")
  func fourAddressesCannotFill() throws {
    let app = try app()
    defer { app.shutdown() }
    let clients = (1...4).flatMap { address in
      (0..<4).map { ClientKey(address: "10.0.0.\(address)", family: family(address, $0)) }
    }
    #expect(fill(app, clients, perClient: 16) == 4 * 32)
    let newcomer = try app.application.registry.create(
      kind: "maze", config: .object([:]), client: ClientKey(address: "10.9.9.9"))
    #expect(!newcomer.0.id.isEmpty)
  }

  @Test("when nearly full, the last places go to addresses holding fewer")
  func lastPlacesToTheLight() throws {
    let app = try app()
    defer { app.shutdown() }
    let addresses = (1...16).map { ClientKey(address: "10.0.9.\($0)") }
    let made = fill(app, addresses, perClient: 16)
    #expect(made < 256, "16 addresses x 16 do not fill 256")
    let registry = app.application.registry
    let free = registry.limits.maxLive - registry.listed.count
    #expect(free >= 15, "an address holding 15 or 16 stops where fewer places are free")
    for index in 0..<free {
      let client = ClientKey(address: "10.1.0.\(index)")
      #expect(
        (try? registry.create(kind: "maze", config: .object([:]), client: client)) != nil,
        "newcomer \(index) of \(free)")
    }
    #expect(registry.listed.count == registry.limits.maxLive)
    #expect(throws: APIError.self) {
      try registry.create(
        kind: "maze", config: .object([:]), client: ClientKey(address: "10.2.0.1"))
    }
  }

  @Test("the reserve bound says why")
  func reserveMessage() {
    let quota = SessionQuota(perClient: 16, perAddress: 32)
    let client = ClientKey(address: "10.0.0.1")
    #expect(quota.admit("a", client: client, free: 10) == nil, "an address holding none")
    #expect(quota.admit("b", client: client, free: 2) == nil, "holds 1, 2 free")
    #expect(quota.admit("c", client: client, free: 2) == .reserve, "holds 2, 2 free")
    #expect(quota.bound(for: ClientKey(address: "10.0.0.2"), free: 1) == nil)
    #expect(quota.message(.reserve).contains("nearly full"))
  }
}

@Suite("The input log is bounded in bytes as well as inputs")
struct InputLogBytesTests {
  @Test("an input that would pass the byte cap is refused, and nothing is counted")
  func byteCap() {
    let cap = InputLogCap(maxInputs: 100, maxBytes: 1000)
    #expect(cap.admit("s", bytes: 600) == nil)
    #expect(cap.admit("s", bytes: 500) == .bytes)
    #expect(cap.admit("s", bytes: 400) == nil, "a smaller one still fits")
    #expect(cap.admit("s", bytes: 1) == .bytes)
    #expect(cap.admit("t", bytes: 1000) == nil, "another session has its own")
    #expect(cap.message(.bytes).contains("1000 bytes"))
    cap.forget("s")
    #expect(cap.admit("s", bytes: 1000) == nil)
  }

  @Test(
    "while the database cannot be written and its queue is full, inputs are refused, saying why")
  func storageBacklog() {
    let why = Mutex<String?>(nil)
    let cap = InputLogCap(maxInputs: 2, storage: { why.withLock { $0 } })
    #expect(cap.admit("s") == nil)
    why.withLock { $0 = "the database cannot be written: disk is full" }
    #expect(cap.admit("s") == .storageBacklog)
    #expect(InputLogCap.Bound.storageBacklog.code == "storage-backlog")
    #expect(InputLogCap.Bound.count.code == "log-full")
    #expect(cap.message(.storageBacklog).contains("disk is full"))
    #expect(cap.message(.storageBacklog).contains("--pending-bytes"))
    why.withLock { $0 = nil }
    #expect(cap.admit("s") == nil, "the refused input was not counted")
    #expect(cap.admit("s") == .count)
  }

  @Test("the count cap still holds")
  func countCap() {
    let cap = InputLogCap(maxInputs: 2, maxBytes: 1 << 20)
    #expect(cap.admit("s", bytes: 1) == nil)
    #expect(cap.admit("s", bytes: 1) == nil)
    #expect(cap.admit("s", bytes: 1) == .count)
  }

  @Test("a refused input gives back both its place and its bytes, so no-ops cannot fill the log")
  func refundGivesBackBytes() {
    let cap = InputLogCap(maxInputs: 2, maxBytes: 100)
    for _ in 0..<1000 {
      #expect(cap.admit("s", bytes: 60) == nil)
      cap.refund("s", bytes: 60)
    }
    #expect(cap.admit("s", bytes: 60) == nil, "the owner can still draw after a flood of no-ops")
    #expect(cap.admit("s", bytes: 60) == .bytes)
    cap.refund("t", bytes: 10)  // a session that logged nothing: nothing to give back
    #expect(cap.admit("t", bytes: 100) == nil)
  }

  @Test("a client's sessions share one byte total, given back when a session is forgotten")
  func clientTotal() {
    let owners: [String: ClientKey] = [
      "a": ClientKey(address: "10.0.0.1"), "b": ClientKey(address: "10.0.0.1"),
      "c": ClientKey(address: "10.0.0.2"),
    ]
    let cap = InputLogCap(
      maxInputs: 100, maxBytes: 1000, maxBytesPerClient: 1500, owner: { owners[$0] })
    #expect(cap.admit("a", bytes: 1000) == nil)
    #expect(cap.admit("b", bytes: 600) == .clientBytes, "within b's own cap, past its owner's")
    #expect(cap.admit("b", bytes: 500) == nil)
    #expect(cap.admit("b", bytes: 1) == .clientBytes)
    #expect(cap.admit("c", bytes: 1000) == nil, "another client has its own total")
    #expect(cap.admit("x", bytes: 1000) == nil, "a session without an owner only has its own")
    #expect(cap.bytes(of: owners["a"]!) == 1500)
    cap.refund("b", bytes: 500)
    #expect(cap.bytes(of: owners["a"]!) == 1000)
    #expect(cap.admit("b", bytes: 500) == nil)
    cap.forget("a")
    #expect(cap.bytes(of: owners["a"]!) == 500, "a deleted session's bytes come back")
    #expect(cap.admit("b", bytes: 500) == nil)
    #expect(cap.message(.clientBytes).contains("1500 bytes"))
  }
}

@Suite("Input-log pages are bounded in bytes and end at whole ticks")
struct InputPageTests {
  @Test("pages end at tick boundaries, within the byte bound, and follow on")
  func pages() throws {
    let directory = NSTemporaryDirectory() + "playfield-pages-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try SQLiteSessionStore(path: directory + "/p.db", limits: StoreLimits())
    _ = try store.createSession(
      StoredSession(id: "s", kind: "holes", config: "{}", seed: 1, token: "t", now: 0), lease: nil)
    let text = #"{"type":"x","pad":"\#(String(repeating: "p", count: 80))"}"#
    let size = text.utf8.count
    let ticks: [Int64] = [1, 1, 1, 2, 2, 3]
    let inputs = ticks.enumerated().map { index, tick in
      LoggedInput(
        sessionID: "s", tick: tick, seq: Int64(ticks[..<index].count(where: { $0 == tick })),
        input: text)
    }
    _ = try store.write(WriteBatch(inputs: inputs))

    let first = try SessionAPI.page(of: "s", after: 0, in: store, maxBytes: size * 9 / 2)
    #expect(first.inputs.map(\.tick) == [1, 1, 1], "tick 2 would pass the bound: it waits")
    #expect(first.more)
    let second = try SessionAPI.page(of: "s", after: 1, in: store, maxBytes: size * 9 / 2)
    #expect(second.inputs.map(\.tick) == [2, 2, 3])
    #expect(!second.more)
    let small = try SessionAPI.page(of: "s", after: 0, in: store, maxBytes: size * 3 / 2)
    #expect(small.inputs.map(\.tick) == [1, 1, 1], "one tick larger than the bound comes whole")
    #expect(small.more)
    let all = try SessionAPI.page(of: "s", after: 0, in: store, maxBytes: 1 << 20)
    #expect(all.inputs.count == 6 && !all.more)
    #expect(try SessionAPI.page(of: "s", after: 3, in: store, maxBytes: 1 << 20).inputs.isEmpty)
  }

  @Test("each refusal names the option that sets its bound")
  func refusalsNameTheirOptions() {
    let quota = SessionQuota(perClient: 16, perAddress: 32, perClientOnDemand: 8)
    #expect(quota.message(.client).contains("(--sessions-per-client)"))
    #expect(quota.message(.address).contains("--session-share"))
    #expect(quota.message(.reserve).contains("(--session-share)"))
    #expect(quota.message(.onDemand).contains("(--on-demand-sessions-per-client)"))
  }
}
