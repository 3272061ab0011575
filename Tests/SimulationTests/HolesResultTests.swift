import JSON
import Simulation
import Testing

@Suite("Holes: the finished game and the default config")
struct HolesResultTests {
  @Test("only the full default config counts as default")
  func defaults() throws {
    let model = try Holes(config: .object([:]), seed: 7)
    #expect(Holes.entersHighScores(config: model.config))
    let custom = try Holes(config: ["pointsPerLevel": 1], seed: 7)
    #expect(!Holes.entersHighScores(config: custom.config))
    #expect(!Holes.entersHighScores(config: .object([:])))
  }

  @Test("a new game is not finished; a lost last ball is, and survives a snapshot")
  func finished() throws {
    var model = try Holes(
      config: [
        "width": 100, "height": 100, "balls": 1, "holes": [[0.5, 0.5]], "holeRadius": 200,
        "maxHoleRadius": 200, "pullStrength": 10, "captureFraction": 0.9, "pauseTicks": 0,
      ], seed: 1)
    #expect(model.finishedGame == nil)
    var steps = 0
    while model.finishedGame == nil && steps < 2_000 {
      _ = model.step(parsing: [])
      steps += 1
    }
    let game = try #require(model.finishedGame)
    let restored = try Holes(snapshot: model.snapshot())
    #expect(restored.finishedGame?.score == game.score)
    #expect(restored.finishedGame?.level == game.level)
  }
}
