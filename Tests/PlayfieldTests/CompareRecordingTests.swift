import JSON
import Simulation
import Testing

@testable import Playfield

/// A log that cannot be read now (nil) while `busy` says so, and fails at `failAt`.
private struct TestLog: ReplayLog {
  final class Busy: @unchecked Sendable {
    var now = false
  }

  struct Fault: Error, CustomStringConvertible {
    var description: String { "disk I/O error" }
  }

  var inner: MemoryReplayLog
  let busy: Busy
  var failAt: UInt64 = .max

  mutating func inputs(forTick tick: UInt64) throws -> [CheckedInput]? {
    if tick == failAt { throw Fault() }
    return busy.now ? nil : try inner.inputs(forTick: tick)
  }

  mutating func restart(after tick: UInt64) { inner.restart(after: tick) }
  mutating func snapshot(atOrBefore tick: UInt64) -> (any Simulation)? { nil }
}

/// A compare group of `ComparePane`s driven tick by tick, its messages parsed back.
private struct Driver {
  final class Viewer: Sendable {}

  var machine: CompareMachine<Viewer>
  let viewer = Viewer()
  var sent: [JSONValue] = []
  var failures: [String] = []

  init(_ panes: [ComparePane], end: UInt64, readouts: [String]? = nil) {
    machine = CompareMachine(id: "g1", panes: panes, end: end, readouts: readouts)
    tick(.join(viewer))
  }

  mutating func tick(_ commands: CompareMachine<Viewer>.Command..., steps: Int = .max) {
    var out: [JSONValue] = []
    var failed: [String] = []
    machine.tick(
      commands,
      mayStepAgain: allowing(steps),
      perform: { action in
        switch action {
        case .send(let bytes, _, _): out.append(try! JSONValue.parse(bytes))
        case .fail(let reason, _): failed.append(reason)
        }
      })
    sent += out
    failures += failed
  }

  func all(_ type: String) -> [JSONValue] {
    sent.filter { $0["type"]?.stringValue == type }
  }

  /// The frames message of group tick `tick` (the last one sent).
  func frames(at tick: Int) -> JSONValue? {
    all("frames").last { $0["tick"]?.intValue == tick }
  }
}

/// A model's frame fields as the group writes them.
private func frame(_ model: any Simulation) throws -> JSONValue {
  try JSONValue.parse(CompareMachine<Driver.Viewer>.frameBytes(model))
}

@Suite("Compare groups: recordings, offsets, loops, readouts")
struct CompareRecordingTests {
  static let holesConfig: JSONValue = ["balls": 3]
  static let ballsConfig: JSONValue = [
    "balls": 6, "width": 300, "height": 200, "radiusMin": 10, "radiusMax": 20,
    "speedMin": 200, "speedMax": 400,
  ]

  /// A holes run tilted right from tick 5 and down from tick 40.
  static func tilts() throws -> [UInt64: [CheckedInput]] {
    [5: [try Holes.batchInput([0.6, 0])], 40: [try Holes.batchInput([0, -0.4])]]
  }

  /// `model` stepped with `inputs` to `tick`.
  static func direct(
    _ model: any Simulation, _ inputs: [UInt64: [CheckedInput]], to tick: UInt64
  ) -> any Simulation {
    var model = model
    while model.tick < tick { _ = model.step(checked: inputs[model.tick + 1] ?? []) }
    return model
  }

  @Test func aRecordingPlaysItsLogBesideAModelAndPartsWhereItsFramesFirstDiffer() throws {
    let start = try Holes(config: Self.holesConfig, seed: 9)
    let inputs = try Self.tilts()
    // Where a run without input and the recorded run first differ, stepped on their own.
    var first: UInt64?
    for tick in UInt64(1)...80 where first == nil {
      if try frame(Self.direct(start, [:], to: tick)) != frame(Self.direct(start, inputs, to: tick))
      {
        first = tick
      }
    }
    let parted = try #require(first)
    #expect(parted >= 5)  // the first tilt shows from the step that applies it on

    let ghost = ComparePane(
      session: "s1", start: start, log: MemoryReplayLog(inputs: inputs), last: 100)
    var d = Driver([ComparePane(model: start), ghost], end: 120)
    d.tick(.step(80))
    #expect(d.machine.tick == 80)
    #expect(d.all("diverged").map { $0["tick"]?.intValue } == [Int(parted)])
    let frames = try #require(d.frames(at: 80))
    let panes = try #require(frames["panes"]?.arrayValue)
    #expect(try panes[1] == frame(Self.direct(start, inputs, to: 80)))
    #expect(try panes[0] == frame(Self.direct(start, [:], to: 80)))
    #expect(frames["ticks"] == [80, 80])
    let hello = try #require(d.all("hello").first)
    #expect(hello["panes"]?[1]?["recording"] == ["session": "s1", "first": 0, "last": 100])
    #expect(hello["panes"]?[0]?["recording"] == .null)

    // Past its last tick a recording holds its last frame.
    d.tick(.seek(120))
    let end = try #require(d.frames(at: 120))
    #expect(end["ticks"] == [120, 100])
    #expect(try end["panes"]?[1] == frame(Self.direct(start, inputs, to: 100)))

    // A seek back replays the log from its start: the same frames.
    d.tick(.seek(80))
    #expect(d.frames(at: 80) == frames)
  }

  @Test func aBusyLogHoldsTheWholeGroupAndAnUnreadableOneEndsItNamingThePane() throws {
    let start = try Holes(config: Self.holesConfig, seed: 9)
    let busy = TestLog.Busy()
    var log = TestLog(inner: MemoryReplayLog(inputs: try Self.tilts()), busy: busy)
    var d = Driver(
      [ComparePane(model: start), ComparePane(session: "s1", start: start, log: log, last: 50)],
      end: 60)
    d.tick(.step(10))
    #expect(d.machine.tick == 10)
    busy.now = true
    let sentBefore = d.all("frames").count
    d.tick(.step(5))
    d.tick()
    // Never a frames message with the panes at different ticks.
    #expect(d.all("frames").count == sentBefore)
    #expect(d.machine.panes.map(\.model.tick) == [11, 10])
    busy.now = false
    d.tick()
    #expect(d.machine.tick == 15)
    #expect(d.all("frames").last?["ticks"] == [15, 15])

    log.failAt = 3
    var failing = Driver(
      [ComparePane(model: start), ComparePane(session: "s7", start: start, log: log, last: 50)],
      end: 60)
    failing.tick(.step(10))
    #expect(
      failing.failures == [
        "pane 2's recording (session s7) can no longer be read: disk I/O error"
      ])
    #expect(!failing.machine.wantsTick)
    failing.tick(.step(1))
    #expect(failing.failures.count == 1)
  }

  @Test func anOffsetShowsAPaneAheadOrBehindTheGroupTick() throws {
    let model = try BouncingBalls(config: Self.ballsConfig, seed: 42)
    var d = Driver(
      [
        ComparePane(model: model), ComparePane(model: model, offset: 5),
        ComparePane(model: model, offset: -3),
      ], end: 100)
    // Tick 0 waits for the ahead pane's five steps: its frames come once it is there.
    #expect(d.all("frames").last?["ticks"] == [0, 5, 0])
    d.tick(.step(2))
    var frames = try #require(d.frames(at: 2))
    #expect(frames["ticks"] == [2, 7, 0])
    #expect(try frames["panes"]?[1] == frame(Self.direct(model, [:], to: 7)))
    #expect(try frames["panes"]?[2] == frame(model))
    d.tick(.step(8))
    frames = try #require(d.frames(at: 10))
    #expect(frames["ticks"] == [10, 15, 7])
    #expect(try frames["panes"]?[2] == frame(Self.direct(model, [:], to: 7)))
    // Offset panes of one model differ from the start.
    #expect(d.all("diverged").map { $0["tick"]?.intValue } == [0])
    // A seek back steps the ahead pane again before its frames.
    d.tick(.seek(1), steps: 3)
    #expect(d.machine.target != nil || !d.machine.isSynced)
    d.tick()
    #expect(d.all("frames").last?["ticks"] == [1, 6, 0])
  }

  @Test func aLoopGoesBackToItsStartOnceItsEndIsShown() throws {
    let model = try BouncingBalls(config: Self.ballsConfig, seed: 42)
    var d = Driver([ComparePane(model: model), ComparePane(model: model)], end: 100)
    d.tick(.seek(12), .loop(10...14), .play)
    #expect(d.all("status").last?["loop"] == ["from": 10, "to": 14])
    for _ in 0..<8 { d.tick() }
    let ticks = d.all("frames").compactMap { $0["tick"]?.intValue }
    #expect(Array(ticks.suffix(8)) == [13, 14, 10, 11, 12, 13, 14, 10])
    #expect(d.machine.playing)
    // The loop's start shows the same frames every time round.
    let starts = d.all("frames").filter { $0["tick"]?.intValue == 10 }
    #expect(starts.count == 2 && starts[0] == starts[1])
    // Cleared: play runs on to the end and stops.
    d.tick(.loop(nil), .speed(8))
    for _ in 0..<20 { d.tick() }
    #expect(d.machine.tick == 100 && !d.machine.playing)
    #expect(d.all("status").last?["loop"] == .null)
  }

  @Test func framesCarryEachPanesChosenReadouts() throws {
    let a = try BouncingBalls(config: Self.ballsConfig, seed: 42)
    let b = try BouncingBalls(
      config: .object(Self.ballsConfig.objectValue!.merging(["restitution": 0.5]) { $1 }),
      seed: 42)
    var d = Driver(
      [ComparePane(model: a), ComparePane(model: b)], end: 100,
      readouts: ["momentumX", "energy"])
    #expect(d.all("hello").first?["readouts"] == ["momentumX", "energy"])
    d.tick(.step(60))
    let frames = try #require(d.frames(at: 60))
    for (index, model) in [a, b].enumerated() {
      let shown = try frame(Self.direct(model, [:], to: 60))
      #expect(
        frames["readouts"]?[index]
          == .array([shown["momentum"]?[0] ?? .null, shown["energy"] ?? .null]))
    }
    #expect(frames["readouts"]?[0] != frames["readouts"]?[1])
    // The kinds' lists.
    #expect(
      BouncingBalls.readoutNames
        == ["energy", "momentumX", "momentumY", "collisions", "ball0X", "ball0Y"])
    #expect(Holes.readoutNames == ["ballX", "ballY", "score", "ballsLeft", "level"])
  }
}
