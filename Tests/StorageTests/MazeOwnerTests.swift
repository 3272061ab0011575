import Testing

@testable import Storage

@Suite("Maze ownership and the per-client quota")
struct MazeOwnerTests {
  let alice = MazeOwner(token: "alice-token", client: "10.0.0.1")
  let mallory = MazeOwner(token: "mallory-token", client: "10.0.0.2")

  @Test("only the owner's token replaces or deletes a maze", arguments: Backend.allCases)
  func ownership(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    try store.saveMaze(name: "spiral", cells: "0110", at: 10, owner: alice)
    #expect(throws: StoreError.notMazeOwner(name: "spiral")) {
      try store.saveMaze(name: "spiral", cells: "1111", at: 20, owner: mallory)
    }
    #expect(throws: StoreError.notMazeOwner(name: "spiral")) {
      try store.deleteMaze(named: "spiral", token: mallory.token)
    }
    #expect(try store.maze(named: "spiral")?.cells == "0110")
    // The owner may save from another address too: the token is what counts.
    let moved = MazeOwner(token: alice.token, client: "10.9.9.9")
    #expect(try store.saveMaze(name: "spiral", cells: "1111", at: 20, owner: moved).cells == "1111")
    #expect(try store.deleteMaze(named: "spiral", token: alice.token))
    #expect(try !store.deleteMaze(named: "spiral", token: alice.token))
  }

  @Test(
    "a maze saved before owners existed can be read but not changed", arguments: Backend.allCases)
  func unowned(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    try store.saveMaze(name: "old", cells: "1", at: 1)
    #expect(throws: StoreError.notMazeOwner(name: "old")) {
      try store.saveMaze(name: "old", cells: "2", at: 2, owner: alice)
    }
    #expect(throws: StoreError.notMazeOwner(name: "old")) {
      try store.deleteMaze(named: "old", token: "")
    }
    #expect(try store.maze(named: "old")?.cells == "1")
  }

  @Test("one client owns at most maxMazesPerClient; others still save", arguments: Backend.allCases)
  func quota(_ backend: Backend) throws {
    var limits = StoreLimits()
    limits.maxMazesPerClient = 3
    let fixture = try StoreFixture(backend, limits: limits)
    defer { fixture.remove() }
    let store = fixture.store
    for index in 0..<3 {
      try store.saveMaze(name: "m\(index)", cells: "1", at: 1, owner: mallory)
    }
    #expect(throws: StoreError.tooManyMazesForClient(limit: 3)) {
      try store.saveMaze(name: "m3", cells: "1", at: 1, owner: mallory)
    }
    // Replacing one's own maze is not a new one.
    try store.saveMaze(name: "m0", cells: "0", at: 2, owner: mallory)
    try store.saveMaze(name: "mine", cells: "1", at: 1, owner: alice)
    #expect(try store.deleteMaze(named: "m1", token: mallory.token))
    try store.saveMaze(name: "m3", cells: "1", at: 3, owner: mallory)
    #expect(try store.listMazes().count == 4)
  }
}
