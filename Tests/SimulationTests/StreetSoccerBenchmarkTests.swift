import Foundation
import JSON
import Testing

@testable import Simulation

/// The street soccer opponents' strength and speed, skipped unless `PLAYFIELD_BENCH=1`; run in
/// release mode: `Benchmarks/soccer/run.sh` (see docs/benchmarks.md, "Street Soccer opponents").
/// One test at a time, so that they do not share the cores.
@Suite(
  "Street soccer benchmark", .serialized,
  .enabled(if: ProcessInfo.processInfo.environment["PLAYFIELD_BENCH"] == "1"))
struct StreetSoccerBenchmarkTests {
  /// One computer against another over `matches` seeded matches of the default config, the
  /// first player at home in odd seeds and away in even ones.
  struct Series {
    var wins = 0
    var draws = 0
    var losses = 0
    var goalsFor = 0
    var goalsAgainst = 0
    /// CPU seconds of each of the first player's turns, and of the second's.
    var firstTurns: [Double] = []
    var secondTurns: [Double] = []

    init(_ first: StreetSoccer.Player, _ second: StreetSoccer.Player, matches: Int) throws {
      for seed in 1...matches {
        let firstHome = seed % 2 == 1
        let config: JSONValue = [
          "home": .string((firstHome ? first : second).rawValue),
          "away": .string((firstHome ? second : first).rawValue), "computerDelay": 0,
        ]
        var model = try StreetSoccer(config: config, seed: UInt64(seed))
        while !model.state.over {
          let firstMoves = (model.state.toMove == .home) == firstHome
          let start = StepBenchmarkTests.threadTime()
          _ = model.step(parsing: [])
          let time = StepBenchmarkTests.threadTime() - start
          if firstMoves { firstTurns.append(time) } else { secondTurns.append(time) }
        }
        let goals = model.state.statistics.goals
        let (own, other) = firstHome ? (goals[0], goals[1]) : (goals[1], goals[0])
        goalsFor += own
        goalsAgainst += other
        if own > other { wins += 1 } else if own == other { draws += 1 } else { losses += 1 }
      }
    }

    func report(_ first: StreetSoccer.Player, _ second: StreetSoccer.Player) {
      let matches = wins + draws + losses
      print(
        "BENCH \(first.rawValue) vs \(second.rawValue), \(matches) matches: \(wins) won, "
          + "\(draws) drawn, \(losses) lost; goals \(goalsFor) to \(goalsAgainst)")
      print("BENCH   \(first.rawValue) turn (CPU): \(StepBenchmarkTests.summary(firstTurns))")
      print("BENCH   \(second.rawValue) turn (CPU): \(StepBenchmarkTests.summary(secondTurns))")
    }
  }

  @Test func strongAgainstNovice() throws {
    let series = try Series(.strong, .novice, matches: 50)
    series.report(.strong, .novice)
    #expect(series.wins >= 40)
  }

  /// What the 60 Hz loop pays while a person thinks: a step without input, and a frame.
  @Test func idleStepAndFrame() throws {
    var model = try StreetSoccer(config: ["away": "human"], seed: 1)
    _ = model.step(parsing: [
      ["type": "turn", "side": "home", "moves": [["move": "step", "piece": 2, "to": [3, 1]]]]
    ])
    var steps: [Double] = []
    var frames: [Double] = []
    var writer = JSONWriter(capacity: 4_096)
    for _ in 0..<10_000 {
      let start = StepBenchmarkTests.threadTime()
      _ = model.step(parsing: [])
      let stepped = StepBenchmarkTests.threadTime()
      writer.reset()
      writer.beginObject()
      model.writeFrame(into: &writer)
      writer.endObject()
      frames.append(StepBenchmarkTests.threadTime() - stepped)
      steps.append(stepped - start)
    }
    print("BENCH street soccer idle step (CPU): \(StepBenchmarkTests.summary(steps))")
    print(
      "BENCH street soccer frame (CPU): \(StepBenchmarkTests.summary(frames)); "
        + "\(writer.bytes.count) bytes")
  }

  @Test func theOtherPairings() throws {
    let pairings: [(StreetSoccer.Player, StreetSoccer.Player)] = [
      (.strong, .defensive), (.defensive, .novice),
    ]
    for (first, second) in pairings {
      try Series(first, second, matches: 20).report(first, second)
    }
  }
}
