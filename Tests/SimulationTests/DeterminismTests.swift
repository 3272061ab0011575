import JSON
import Playfield
import Testing

@testable import Simulation

/// A scripted session: a model, its config and seed, and the inputs sent at each tick.
struct Scenario: Sendable, CustomTestStringConvertible {
  let type: any Simulation.Type
  let config: JSONValue
  let seed: UInt64
  let steps: Int
  /// Events the run must produce, so that the golden hash covers those paths.
  let expectedEvents: Set<String>
  let inputs: @Sendable (Int) -> [JSONValue]

  var testDescription: String { type.kind }

  static let all: [Scenario] = [
    Scenario(
      type: BouncingBalls.self,
      config: [
        "balls": 60, "width": 400, "height": 300, "radiusMin": 4, "radiusMax": 12,
        "restitution": 0.9, "speedMax": 500,
      ],
      seed: 2_024, steps: 1_500, expectedEvents: ["ball-added", "reset"],
      inputs: { tick in
        switch tick {
        case let t where t % 100 == 50:
          [["type": "add-ball", "x": .number(Double(t % 400)), "y": 20, "vx": -300, "vy": 250]]
        case 600: [["type": "throw", "index": 3, "vx": 1_200, "vy": -900]]
        case 1_000: [["type": "reset"]]
        default: []
        }
      }),
    Scenario(
      type: MazeBall.self,
      config: [
        "cells": [
          "............", ".##..#......", "..#..#..###.", "..#.....#...", "..####..#...",
          "........#...", "...#........", "...#...####.", "...#........", ".....##.....",
          "#...........", "......#....#",
        ]
      ],
      seed: 7, steps: 3_000, expectedEvents: ["bump", "maze", "reset"],
      inputs: { tick in
        var inputs: [JSONValue] = []
        if tick % 40 == 0 {
          let angle = Double(tick) * 0.37
          inputs.append([
            "type": "tilt", "x": .number(1.5 * DeterministicMath.cos(angle)),
            "y": .number(1.5 * DeterministicMath.sin(angle)),
          ])
        }
        if tick % 170 == 0 {
          inputs.append(["type": "toggle", "row": .number(tick % 12), "col": .number(tick % 11)])
        }
        if tick == 2_500 { inputs.append(["type": "reset"]) }
        return inputs
      }),
    Scenario(
      type: Holes.self, config: ["pauseTicks": 30], seed: 11, steps: 4_000,
      expectedEvents: ["score", "lost", "ball", "game-over", "reset"],
      inputs: { tick in
        switch tick % 240 {
        case 0: [["type": "tilt", "x": -0.8, "y": 0.9]]
        case 120: [["type": "tilt", "x": 0.3, "y": -0.6]]
        case 200: [["type": "tilt", "x": -1.2, "y": 0.4]]
        default: tick == 3_500 ? [["type": "restart"]] : []
        }
      }),
    Scenario(
      type: TagCloud.self, config: [:], seed: 3, steps: 2_000, expectedEvents: ["tags", "reset"],
      inputs: { tick in
        switch tick {
        case 100..<130: [["type": "drag", "dx": 9, "dy": -4]]
        case 130: [["type": "release"]]
        case 700: [["type": "tags", "tags": ["one", "two", ["text": "three", "weight": 4]]]]
        case 1_200: [["type": "reset"]]
        default: []
        }
      }),
    Scenario(
      type: Paintbrush.self, config: ["maxStrokes": 20], seed: 5, steps: 1_200,
      expectedEvents: ["paint", "input-rejected"], inputs: PaintbrushTests.script),
    Scenario(
      type: StreetSoccer.self,
      config: ["home": "strong", "away": "novice", "turnsPerSide": 4, "computerDelay": 8],
      seed: 26, steps: 1_000,
      expectedEvents: [
        "roll", "turn", "goal", "match-over", "rematch", "kits", "reset", "input-rejected",
      ],
      inputs: { tick in
        switch tick {
        case 20:
          [
            [
              "type": "kit", "side": "away", "shirt": "#c01818", "shorts": "#ffffff",
              "pattern": "sash", "patternColor": "#ffffff",
            ]
          ]
        case 40: [["type": "turn", "side": "away", "moves": []]]
        case 60: [["type": "rematch", "side": "home"]]
        case 700: [["type": "reset"]]
        default: []
        }
      }),
  ]

  /// Runs ticks `from..<to` of the script on `model`; returns the names of the events.
  @discardableResult
  func run(_ model: inout any Simulation, from start: Int, to end: Int) -> Set<String> {
    var events: Set<String> = []
    for tick in start..<end {
      // As the session does: each message checked once, kept typed to the step.
      let checked = inputs(tick).compactMap {
        try? type.checkedInput(from: $0, sentBy: .controller)
      }
      for event in model.step(checked: checked) { events.insert(event.name) }
    }
    return events
  }

  func start() throws -> any Simulation {
    try type.init(config: config, seed: seed)
  }
}

@Suite("Determinism, replay and snapshots")
struct DeterminismTests {
  /// Hashes of each scenario's final state. They pin the exact behaviour: any change to the
  /// physics, the generator or the snapshot format changes them (update them deliberately).
  /// NB: the models avoid libm (see DeterministicMath), so these hold on every IEEE platform.
  static let goldenHashes: [String: UInt64] = [
    "bouncing-balls": 15_923_638_358_794_729_037,
    "maze": 542_090_198_448_957_231,
    "holes": 1_542_131_266_196_102_896,
    "tag-cloud": 2_873_872_488_957_037_043,
    // NB: the scenario's inputs are stamped as the controller's (`controller-DIGEST` authors).
    "paintbrush": 1_361_749_454_272_073_907,
    "street-soccer": 15_434_717_870_658_201_685,
  ]

  @Test("golden state hash", arguments: Scenario.all)
  func goldenHash(_ scenario: Scenario) throws {
    var model = try scenario.start()
    let events = scenario.run(&model, from: 0, to: scenario.steps)
    #expect(events.isSuperset(of: scenario.expectedEvents))
    #expect(model.tick == UInt64(scenario.steps))
    #expect(model.stateHash == Self.goldenHashes[scenario.type.kind], "\(model.stateHash)")
  }

  @Test("snapshot, restore and continue equals the uninterrupted run", arguments: Scenario.all)
  func snapshotRestoreContinue(_ scenario: Scenario) throws {
    var straight = try scenario.start()
    let expectedConfig = straight.config
    scenario.run(&straight, from: 0, to: scenario.steps)
    for cut in [0, scenario.steps / 3, scenario.steps * 2 / 3 + 1] {
      var first = try scenario.start()
      scenario.run(&first, from: 0, to: cut)
      let bytes = first.snapshot()
      var resumed = try scenario.type.init(snapshot: bytes)
      #expect(resumed.snapshot() == bytes)
      #expect(resumed.tick == UInt64(cut))
      #expect(resumed.config == expectedConfig)
      scenario.run(&resumed, from: cut, to: scenario.steps)
      #expect(resumed.snapshot() == straight.snapshot())
      #expect(resumed.stateHash == straight.stateHash)
    }
  }

  @Test("replaying the normalized inputs gives the same frames", arguments: Scenario.all)
  func replayGivesTheSameFrames(_ scenario: Scenario) throws {
    var live = try scenario.start()
    var replay = try scenario.start()
    for tick in 0..<min(scenario.steps, 800) {
      // The log stores serialized JSON; the replay parses it back.
      let logged = scenario.inputs(tick).compactMap { try? scenario.type.normalized($0) }
      let reparsed = try logged.map { try JSONValue.parse($0.serialized()) }
      let liveEvents = live.step(parsing: logged)
      let replayEvents = replay.step(parsing: reparsed)
      #expect(liveEvents == replayEvents)
      if tick % 50 == 0 {
        var a = JSONWriter()
        var b = JSONWriter()
        live.writeFrame(into: &a)
        replay.writeFrame(into: &b)
        #expect(a.bytes == b.bytes)
      }
    }
    #expect(live.stateHash == replay.stateHash)
  }

  @Test("configs normalize to a fixed point and survive a snapshot", arguments: Scenario.all)
  func configNormalization(_ scenario: Scenario) throws {
    let model = try scenario.start()
    let again = try scenario.type.init(config: model.config, seed: scenario.seed)
    #expect(again.config == model.config)
    #expect(again.stateHash == model.stateHash)
    let defaults = try scenario.type.init(config: [:], seed: 1)
    #expect(defaults.config.objectValue?.isEmpty == false)
  }

  @Test("bad snapshots are rejected, never crash", arguments: Scenario.all)
  func badSnapshots(_ scenario: Scenario) throws {
    var model = try scenario.start()
    scenario.run(&model, from: 0, to: 30)
    let bytes = model.snapshot()
    for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) {
      #expect(throws: SimulationError.self) {
        try scenario.type.init(snapshot: Array(bytes[0..<length]))
      }
    }
    #expect(throws: SimulationError.self) { try scenario.type.init(snapshot: bytes + [0]) }
    var random = SeededGenerator(seed: 99)
    for _ in 0..<300 {
      var damaged = bytes
      damaged[random.next(below: damaged.count)] ^= UInt8(1 << random.next(below: 8))
      _ = try? scenario.type.init(snapshot: damaged)
    }
    for other in DemoRegistry.models where other.kind != scenario.type.kind {
      #expect(throws: SimulationError.self) { try other.init(snapshot: bytes) }
    }
  }

  @Test func differentSeedsGiveDifferentBalls() throws {
    let a = try BouncingBalls(config: ["balls": 10], seed: 1)
    let b = try BouncingBalls(config: ["balls": 10], seed: 2)
    #expect(a.state.balls != b.state.balls)
    #expect(a.stateHash != b.stateHash)
  }

  @Test func everyRegisteredModelHasAScenario() {
    let kinds = DemoRegistry.models.map { $0.kind }
    #expect(Set(kinds).count == kinds.count)
    #expect(
      Set(kinds) == Set(Scenario.all.map { $0.type.kind }))
    let maze = DemoRegistry.model(named: "maze").map { ObjectIdentifier($0) }
    #expect(maze == ObjectIdentifier(MazeBall.self))
    #expect(DemoRegistry.model(named: "mandelbrot") == nil)
    #expect(DemoRegistry.models.allSatisfy { !$0.title.isEmpty && !$0.summary.isEmpty })
  }

  @Test("every model accepts reset", arguments: Scenario.all)
  func everyModelAcceptsReset(_ scenario: Scenario) throws {
    let normalized = try #require(try scenario.type.normalized(["type": "reset"]))
    var model = try scenario.start()
    scenario.run(&model, from: 0, to: 100)
    _ = model.step(parsing: [normalized])
    #expect(model.tick == 101)
  }

  @Test func generatorIsXoshiro256StarStar() {
    // Reference values of xoshiro256** from SplitMix64(0), computed independently.
    var generator = SeededGenerator(seed: 0)
    #expect(generator.next() == 0x99EC_5F36_CB75_F2B4)
    var dice: [Int] = Array(repeating: 0, count: 6)
    for _ in 0..<60_000 { dice[generator.next(below: 6)] += 1 }
    #expect(dice.allSatisfy { (9_500...10_500).contains($0) })
  }
}
