import JSON
import Simulation
import Testing

@testable import Playfield

/// A replay driven tick by tick; what it sends is read back as short words.
private struct ReplayDriver {
  var machine: ReplayMachine
  /// How many steps one tick may run (its `StepSlice`).
  var stepsPerTick = Int.max

  /// A counter whose log adds 1 at ticks 3 and 5, replayed to tick `end`.
  init(end: UInt64 = 10) throws {
    let start = try Counter(config: [:], seed: 1)
    let add = try #require(try Counter.checkedInput(from: ["type": "add", "amount": 1]))
    machine = ReplayMachine(id: "r1", start: start, inputs: [3: [add], 5: [add]], end: end)
  }

  mutating func tick(_ commands: ReplayMachine.Command...) -> [String] {
    var words: [String] = []
    var steps = 0
    let allowed = stepsPerTick
    machine.tick(
      commands,
      mayStepAgain: {
        // Asked before every step, the first included.
        steps += 1
        return steps <= allowed
      },
      perform: { action in
        guard case .send(let message, let latestOnly) = action else { return }
        words.append(Self.word(message) + (latestOnly ? " latest" : ""))
      })
    return words
  }

  static func word(_ message: ServerMessage) -> String {
    switch message {
    case .hello(let hello): "hello \(hello.model.tick) end \(hello.replayEnd ?? 0)"
    case .frame(let model): "frame \(model.tick)"
    case .event(let event, let tick): "event \(event.name) \(tick)"
    case .replayStatus(let s):
      "status \(s.tick) \(s.playing ? "playing" : "paused") x\(s.speed)"
        + (s.seeking ? " seeking" : "")
    default: "other"
    }
  }
}

@Suite struct ReplayMachineTests {
  @Test func aCompactedLogPlaysFromItsFirstSnapshotAndSeeksNoEarlier() throws {
    // An on-demand session's log kept only after its snapshot at tick 4.
    var start: any Simulation = try Counter(config: [:], seed: 1)
    for _ in 0..<4 { _ = start.step(checked: []) }
    let add = try #require(try Counter.checkedInput(from: ["type": "add", "amount": 1]))
    var d = try ReplayDriver()
    d.machine = ReplayMachine(id: "r1", start: start, inputs: [5: [add]], end: 10)
    #expect(d.tick().first == "hello 4 end 10")
    #expect(d.machine.model.tick == 5 && (d.machine.model as? Counter)?.total == 1)
    for tick in [0, 3] as [UInt64] {
      let words = d.tick(.pause, .seek(tick))
      #expect(words.contains("hello 4 end 10"), "seek \(tick)")
      #expect(d.machine.status.tick == 4 && !d.machine.status.seeking)
      #expect(!d.machine.wantsTick, "nothing left to catch up")
    }
    _ = d.tick(.seek(10))
    #expect(d.machine.model.tick == 10 && (d.machine.model as? Counter)?.total == 1)
    // Play at the end starts again from the first snapshot.
    #expect(d.tick(.play).contains("hello 4 end 10"))
    _ = d.tick()
    #expect(d.machine.model.tick == 5 && (d.machine.model as? Counter)?.total == 1)
  }

  @Test func greetsThenPlaysTheLogWithItsEventsAtTheirTicks() throws {
    var d = try ReplayDriver()
    #expect(
      d.tick() == ["hello 0 end 10", "frame 1 latest", "status 1 playing x1.0"])
    #expect(d.tick() == ["frame 2 latest"])
    #expect(d.tick() == ["event added 3", "frame 3 latest"])
    #expect((d.machine.model as? Counter)?.total == 1)
  }

  @Test func stopsAtTheEndAndPlayAgainStartsOver() throws {
    var d = try ReplayDriver(end: 4)
    _ = d.tick(.speed(8))
    #expect(d.machine.model.tick == 4 && !d.machine.playing)
    #expect(d.tick() == [])
    let words = d.tick(.play)
    #expect(words.first == "hello 0 end 4", "a fresh hello after seeking back to the start")
    #expect(d.machine.playing && d.machine.model.tick == 0)
    _ = d.tick(.speed(1))
    #expect(d.machine.model.tick == 1)
  }

  @Test func quarterSpeedStepsOnceEveryFourTicks() throws {
    var d = try ReplayDriver()
    _ = d.tick(.speed(0.25))
    let ticks = (0..<8).map { _ -> UInt64 in
      _ = d.tick()
      return d.machine.model.tick
    }
    #expect(ticks == [0, 0, 1, 1, 1, 1, 2, 2])
  }

  @Test func aSliceCutBetweenSpeedStepsHoldsTheFrameAndStepsTheRestNextTick() throws {
    var d = try ReplayDriver(end: 100)
    _ = d.tick()
    #expect(
      d.tick(.speed(4)) == [
        "event added 3", "event added 5", "frame 5 latest", "status 5 playing x4.0",
      ])
    d.stepsPerTick = 3
    #expect(d.tick() == [], "8 is not a whole 4x step from 1, where 4x began")
    #expect(d.machine.model.tick == 8)
    d.stepsPerTick = .max
    #expect(d.tick() == ["frame 13 latest"], "the tick after steps what was owed, and its own")
    #expect(d.tick() == ["frame 17 latest"])
    // A speed, or a seek, starts the steps again from where the replay is.
    d.stepsPerTick = 1
    #expect(d.tick(.speed(2)) == ["frame 18 latest", "status 18 playing x2.0"])
    #expect(d.tick() == ["frame 19 latest"])
    #expect(d.tick() == [])
    #expect(d.tick() == ["frame 21 latest"])
  }

  @Test func aReplayThatStaysBehindSkipsWholeSpeedStepsAndStillShowsFrames() throws {
    var d = try ReplayDriver(end: 10_000)
    _ = d.tick(.speed(8))
    d.stepsPerTick = 3
    var frames: [UInt64] = []
    for _ in 0..<200 {
      for word in d.tick() where word.hasPrefix("frame") {
        frames.append(UInt64(word.split(separator: " ")[1])!)
      }
    }
    #expect(frames.count >= 24, "a frame every eight ticks at least: \(frames.count)")
    #expect(frames.allSatisfy { $0 % 8 == 0 }, "\(frames)")
    #expect(d.machine.model.tick == 8 + 200 * 3, "it steps as much as its slices let it")
  }

  @Test func seekingBackRebuildsFromTheStartAndGreetsAgain() throws {
    var d = try ReplayDriver(end: 100)
    _ = d.tick(.seek(50))
    #expect(d.machine.model.tick == 50)
    let words = d.tick(.seek(4))
    #expect(words == ["hello 4 end 100", "frame 4 latest", "status 4 playing x1.0"])
    #expect((d.machine.model as? Counter)?.total == 1, "the input at tick 5 is not applied yet")
  }

  @Test func aLongSeekCatchesUpOverSeveralTicksWithoutFrames() throws {
    var d = try ReplayDriver(end: 1_000)
    _ = d.tick(.pause)
    d.stepsPerTick = 32
    #expect(d.tick(.seek(900)) == ["status 32 paused x1.0 seeking"])
    #expect(d.tick() == [])
    var ticks = 2
    while d.machine.target != nil {
      _ = d.tick()
      ticks += 1
    }
    #expect(d.machine.model.tick == 900 && ticks == 29)
  }

  @Test func seeksPastTheEndStopAtTheEnd() throws {
    var d = try ReplayDriver(end: 10)
    _ = d.tick(.seek(1_000))
    #expect(d.machine.model.tick == 10)
  }
}
