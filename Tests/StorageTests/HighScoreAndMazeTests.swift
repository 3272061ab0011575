import Testing

@testable import Storage

@Suite struct HighScoreAndMazeTests {
  @Test(arguments: Backend.allCases) func ranksByLevelThenScoreThenEarliestDate(_ backend: Backend)
    throws
  {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    #expect(try store.addHighScore(HighScore(name: "late", score: 5, level: 2, createdAt: 20)) == 1)
    #expect(
      try store.addHighScore(HighScore(name: "early", score: 5, level: 2, createdAt: 10)) == 1)
    #expect(try store.addHighScore(HighScore(name: "many", score: 50, level: 1, createdAt: 5)) == 3)
    #expect(try store.addHighScore(HighScore(name: "top", score: 1, level: 3, createdAt: 30)) == 1)
    #expect(try store.topHighScores().map(\.name) == ["top", "early", "late", "many"])
  }

  @Test(arguments: Backend.allCases) func topTenOfAKeptTableOfBoundedSize(_ backend: Backend) throws
  {
    var limits = StoreLimits()
    limits.maxHighScores = 12
    let fixture = try StoreFixture(backend, limits: limits)
    defer { fixture.remove() }
    let store = fixture.store
    for score in 1...15 {
      try store.addHighScore(
        HighScore(name: "p\(score)", score: Int64(score), level: 1, createdAt: Double(score)))
    }
    #expect(try store.topHighScores().map(\.score) == Array((6...15).reversed()))
    #expect(try store.topHighScores(limit: 100).count == 12)
    #expect(
      try store.addHighScore(HighScore(name: "low", score: 0, level: 1, createdAt: 99)) == nil)
  }

  @Test(arguments: Backend.allCases) func validatesHighScores(_ backend: Backend) throws {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    #expect(throws: StoreError.invalidName("name is empty")) {
      try store.addHighScore(HighScore(name: "  ", score: 1, level: 1, createdAt: 0))
    }
    #expect(throws: StoreError.self) {
      try store.addHighScore(HighScore(name: "ok", score: -1, level: 1, createdAt: 0))
    }
    try store.addHighScore(HighScore(name: "  <b>Ada</b>  ", score: 1, level: 1, createdAt: 0))
    #expect(try store.topHighScores().map(\.name) == ["<b>Ada</b>"])  // stored as typed, trimmed
  }

  @Test(arguments: Backend.allCases) func savesLoadsReplacesListsAndDeletesMazes(_ backend: Backend)
    throws
  {
    let fixture = try StoreFixture(backend)
    defer { fixture.remove() }
    let store = fixture.store
    let saved = try store.saveMaze(name: "spiral", cells: "0110", at: 10)
    #expect(saved == SavedMaze(name: "spiral", cells: "0110", createdAt: 10, updatedAt: 10))
    let replaced = try store.saveMaze(name: "spiral", cells: "1111", at: 20)
    #expect(replaced == SavedMaze(name: "spiral", cells: "1111", createdAt: 10, updatedAt: 20))
    try store.saveMaze(name: "box", cells: "1001", at: 30)
    #expect(try store.listMazes().map(\.name) == ["box", "spiral"])
    #expect(try store.maze(named: " spiral ")?.cells == "1111")
    #expect(try store.deleteMaze(named: "spiral"))
    #expect(try !store.deleteMaze(named: "spiral"))
    #expect(try store.maze(named: "spiral") == nil)
  }

  @Test(arguments: Backend.allCases) func mazeNamesAreOneUnicodeFormAndTheTableIsBounded(
    _ backend: Backend
  ) throws {
    var limits = StoreLimits()
    limits.maxMazes = 2
    limits.maxMazeBytes = 8
    let fixture = try StoreFixture(backend, limits: limits)
    defer { fixture.remove() }
    let store = fixture.store
    try store.saveMaze(name: "caf\u{E9}", cells: "1", at: 1)
    try store.saveMaze(name: "cafe\u{301}", cells: "2", at: 2)  // same name, decomposed
    #expect(try store.listMazes().map(\.cells) == ["2"])
    try store.saveMaze(name: "second", cells: "3", at: 3)
    #expect(throws: StoreError.tooManyMazes(limit: 2)) {
      try store.saveMaze(name: "third", cells: "4", at: 4)
    }
    try store.saveMaze(name: "second", cells: "5", at: 5)  // replacing is still allowed
    #expect(throws: StoreError.self) {
      try store.saveMaze(name: "second", cells: "123456789", at: 6)
    }
    #expect(throws: StoreError.self) { try store.saveMaze(name: "second", cells: "", at: 6) }
  }
}
