import Testing

@testable import Storage

@Suite("Saved mazes per address: every client of an address counts")
struct MazeAddressQuotaTests {
  @Test(
    "families of one address own their own mazes up to the address's cap",
    arguments: Backend.allCases)
  func nested(_ backend: Backend) throws {
    var limits = StoreLimits()
    limits.maxMazesPerClient = 2
    limits.maxMazesPerAddress = 3
    let fixture = try StoreFixture(backend, limits: limits)
    defer { fixture.remove() }
    let store = fixture.store
    let tabA = MazeOwner(token: "a", client: "10.0.0.1 familyA", address: "10.0.0.1")
    let tabB = MazeOwner(token: "b", client: "10.0.0.1 familyB", address: "10.0.0.1")
    let script = MazeOwner(token: "s", client: "10.0.0.1")
    let neighbour = MazeOwner(token: "n", client: "10.0.0.10")
    try store.saveMaze(name: "a0", cells: "1", at: 1, owner: tabA)
    try store.saveMaze(name: "a1", cells: "1", at: 1, owner: tabA)
    #expect(throws: StoreError.tooManyMazesForClient(limit: 2)) {
      try store.saveMaze(name: "a2", cells: "1", at: 1, owner: tabA)
    }
    try store.saveMaze(name: "s0", cells: "1", at: 1, owner: script)
    #expect(throws: StoreError.tooManyMazesForAddress(limit: 3)) {
      try store.saveMaze(name: "b0", cells: "1", at: 1, owner: tabB)
    }
    // 10.0.0.10 starts with 10.0.0.1 but is another address.
    try store.saveMaze(name: "n0", cells: "1", at: 1, owner: neighbour)
    #expect(try store.deleteMaze(named: "a0", token: "a"))
    try store.saveMaze(name: "b0", cells: "1", at: 2, owner: tabB)
  }
}
