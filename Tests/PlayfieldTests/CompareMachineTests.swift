import JSON
import Simulation
import Testing

@testable import Playfield

/// A compare group driven tick by tick; what it sends is read back as parsed JSON.
private struct CompareDriver {
  final class Viewer: Sendable {}

  var machine: CompareMachine<Viewer>
  let viewer = Viewer()
  /// Every message sent so far, in order, with whether it may be replaced by a newer one.
  var sent: [(message: JSONValue, latestOnly: Bool)] = []

  /// Bouncing balls with `base` config and one pane per entry of `variants`, the same seed.
  init(base: [String: JSONValue], variants: [[String: JSONValue]], end: UInt64 = 600) throws {
    let panes: [any Simulation] = try variants.map {
      try BouncingBalls(config: .object(base.merging($0) { $1 }), seed: 42)
    }
    machine = CompareMachine(id: "g1", panes: panes, end: end)
  }

  mutating func tick(_ commands: CompareMachine<Viewer>.Command..., steps: Int = .max) {
    var out: [(JSONValue, Bool)] = []
    machine.tick(
      commands,
      mayStepAgain: allowing(steps),
      perform: { action in
        guard case .send(let bytes, _, let latestOnly) = action else { return }
        out.append((try! JSONValue.parse(bytes), latestOnly))
      })
    sent += out.map { (message: $0.0, latestOnly: $0.1) }
  }

  func all(_ type: String) -> [JSONValue] {
    sent.map(\.message).filter { $0["type"]?.stringValue == type }
  }
}

/// The frame each model writes (its `frame` message without `type`, `tick` and `t`).
private func frame(_ model: any Simulation) throws -> JSONValue {
  guard case .object(var fields) = try JSONValue.parse(ServerMessage.frame(model).bytes) else {
    return .null
  }
  for key in ["type", "tick", "t"] { fields[key] = nil }
  return .object(fields)
}

@Suite struct CompareMachineTests {
  static let base: [String: JSONValue] = [
    "balls": 6, "width": 300, "height": 200, "radiusMin": 10, "radiusMax": 20,
    "speedMin": 200, "speedMax": 400,
  ]

  @Test func twoIdenticalPanesNeverDiffer() throws {
    var d = try CompareDriver(base: Self.base, variants: [[:], [:]], end: 900)
    d.tick(.join(d.viewer), .step(900), steps: 64)
    while d.machine.tick < 900 { d.tick(steps: 64) }
    #expect(d.machine.tick == 900)
    #expect(d.machine.diverged == nil)
    #expect(d.all("diverged").isEmpty)
    let frames = d.all("frames")
    #expect(frames.count > 10)
    for message in frames {
      let panes = try #require(message["panes"]?.arrayValue)
      #expect(panes.count == 2 && panes[0] == panes[1])
    }
    #expect(frames.last?["tick"]?.intValue == 900)
  }

  @Test func aChangedParameterIsReportedAtTheFirstTickWhereFramesDiffer() throws {
    // The expected tick, found by stepping two models on their own and comparing frames.
    var a: any Simulation = try BouncingBalls(config: .object(Self.base), seed: 42)
    var b: any Simulation = try BouncingBalls(
      config: .object(Self.base.merging(["restitution": 0.5]) { $1 }), seed: 42)
    var expected: UInt64?
    for _ in 0..<600 {
      _ = a.step(checked: [])
      _ = b.step(checked: [])
      if try frame(a) != frame(b) {
        expected = a.tick
        break
      }
    }
    let first = try #require(expected)
    #expect(first > 1)  // the panes start alike: the parameter shows only at a collision

    var d = try CompareDriver(base: Self.base, variants: [[:], ["restitution": 0.5]])
    d.tick(.join(d.viewer))
    // One tick at a time: the frames just before agree, and the diverged message comes
    // before the frames of its tick.
    while d.machine.tick < first + 2 { d.tick(.step(1)) }
    #expect(d.machine.diverged == first)
    let diverged = d.all("diverged")
    #expect(diverged.count == 1 && diverged[0]["tick"]?.intValue == Int(first))
    let messages = d.sent.map(\.message)
    let told = try #require(messages.firstIndex { $0["type"]?.stringValue == "diverged" })
    let framesOfFirst = try #require(
      messages.firstIndex {
        $0["type"]?.stringValue == "frames" && $0["tick"]?.intValue == Int(first)
      })
    #expect(told < framesOfFirst)
    for message in d.all("frames") {
      let tick = try #require(message["tick"]?.intValue)
      let panes = try #require(message["panes"]?.arrayValue)
      #expect((panes[0] == panes[1]) == (tick < Int(first)), "tick \(tick)")
    }

    // A seek back to 0 and forward again shows the same frames and says nothing again.
    let framesAfter = try #require(d.all("frames").last)
    d.tick(.seek(0))
    d.tick(.seek(first + 2))
    #expect(d.machine.tick == first + 2)
    #expect(d.all("frames").last == framesAfter)
    #expect(d.all("diverged").count == 1)
  }

  @Test func aLiveOffsetShiftsItsPaneAtTheNextTickAndFindsThePartingAgain() throws {
    var d = try CompareDriver(base: Self.base, variants: [[:], [:]])
    d.tick(.join(d.viewer), .step(50))
    #expect(d.machine.tick == 50 && d.machine.diverged == nil)

    // Pane 2 five ticks ahead: at the next tick it shows its own tick 55 at group tick 50,
    // exactly the frame of a run stepped on its own to 55, and the runs part at tick 0.
    d.tick(.offset(pane: 1, value: 5))
    var alone: any Simulation = try BouncingBalls(config: .object(Self.base), seed: 42)
    for _ in 0..<55 { _ = alone.step(checked: []) }
    let shifted = try #require(d.all("frames").last)
    #expect(shifted["tick"]?.intValue == 50)
    #expect(shifted["ticks"]?.arrayValue?.compactMap(\.intValue) == [50, 55])
    #expect(shifted["panes"]?.arrayValue?[1] == (try frame(alone)))
    #expect(d.machine.diverged == 0)
    #expect(d.all("diverged").map { $0["tick"]?.intValue } == [0])
    #expect(d.all("status").last?["offsets"]?.arrayValue?.compactMap(\.intValue) == [0, 5])

    // Back to 0, one behind the other: they agree again and nothing parts; a pane that
    // does not exist or an unchanged offset changes nothing.
    d.tick(.offset(pane: 1, value: 0))
    let back = try #require(d.all("frames").last)
    #expect(back["ticks"]?.arrayValue?.compactMap(\.intValue) == [50, 50])
    #expect(back["panes"]?.arrayValue?[0] == back["panes"]?.arrayValue?[1])
    #expect(d.machine.diverged == nil)
    let sentBefore = d.sent.count
    d.tick(.offset(pane: 7, value: 3), .offset(pane: 0, value: 0))
    #expect(d.machine.panes.map(\.offset) == [0, 0])
    #expect(d.sent.count == sentBefore, "nothing to tell")
  }

  @Test func theAmbientPaneLoopsOnItsOwnWhileTheGroupStandsStill() throws {
    var d = try CompareDriver(base: Self.base, variants: [[:], ["restitution": 0.5]])
    let background = try BouncingBalls(
      config: .object(Self.base.merging(["balls": 3]) { $1 }), seed: 9)
    d.machine = CompareMachine(
      id: "g1", panes: d.machine.panes, end: 600,
      ambient: (ComparePane(model: background), 4))
    #expect(!d.machine.wantsTick, "nobody watches yet")
    d.tick(.join(d.viewer))
    #expect(d.all("hello").first?["ambient"]?["end"]?.intValue == 4)
    #expect(!d.machine.wantsTick, "a viewer has it played only when it asks")
    d.tick(.ambient(d.viewer, playing: true))
    for _ in 0..<6 { d.tick() }
    // One own tick a game-loop tick, from its start again after tick 4; the group stays at 0
    // and each message carries the group's frames too.
    let frames = d.all("frames")
    #expect(frames.compactMap { $0["ambient"]?["tick"]?.intValue } == [1, 2, 3, 4, 0, 1, 2])
    #expect(frames.allSatisfy { $0["tick"]?.intValue == 0 && $0["panes"]?.arrayValue?.count == 2 })
    var alone: any Simulation = background
    for _ in 0..<2 { _ = alone.step(checked: []) }
    #expect(frames.last?["ambient"]?["frame"] == (try frame(alone)))
    #expect(d.machine.tick == 0 && d.machine.wantsTick)

    // This viewer pauses it (hidden, or reduced motion): nothing more is sent or stepped.
    d.tick(.ambient(d.viewer, playing: false))
    let sent = d.sent.count
    #expect(!d.machine.wantsTick)
    d.tick()
    #expect(d.sent.count == sent)
    // Stepping the group sends its frames without the ambient pane.
    d.tick(.step(3))
    #expect(d.all("frames").last?["tick"]?.intValue == 3)
    #expect(d.all("frames").last?["ambient"] == nil)
  }

  @Test func panesThatStartApartDivergeAtTickZeroAndAJoinerIsToldOnce() throws {
    var d = try CompareDriver(base: Self.base, variants: [[:], ["balls": 7]])
    #expect(d.machine.diverged == 0)
    d.tick(.join(d.viewer))
    #expect(d.sent.first?.message["type"]?.stringValue == "hello")
    #expect(d.all("diverged").map { $0["tick"]?.intValue } == [0])
    d.tick(.step(30))
    #expect(d.all("diverged").count == 1)
    #expect(d.all("frames").last?["tick"]?.intValue == 30)
  }

  @Test func playStepsBySpeedAndStopsAtTheEnd() throws {
    var d = try CompareDriver(base: Self.base, variants: [[:], [:], [:]], end: 10)
    d.tick(.join(d.viewer), .speed(4), .play)
    #expect(d.machine.tick == 4)
    d.tick()
    d.tick()
    #expect(d.machine.tick == 10 && !d.machine.playing)
    #expect(d.all("frames").last?["panes"]?.arrayValue?.count == 3)
    #expect(d.all("status").last?["playing"]?.boolValue == false)
    // Play at the end starts again from the first tick.
    d.tick(.speed(1), .play)
    #expect(d.machine.tick == 1 && d.machine.playing)
  }

  @Test func playThatACutSliceLeftShortIsSteppedOnTheNextTicks() throws {
    var d = try CompareDriver(base: Self.base, variants: [[:], [:]], end: 600)
    d.tick(.join(d.viewer), .speed(4), .play)
    #expect(d.machine.tick == 4)
    d.tick(steps: 1)
    #expect(d.machine.tick == 5, "a busy machine's slice: one group tick of four")
    d.tick()
    #expect(d.machine.tick == 12, "the three owed and this tick's four")
    // A group that keeps falling behind owes at most 4 ticks' credit: 16 at 4x.
    for _ in 0..<20 { d.tick(steps: 1) }
    d.tick()
    #expect(d.machine.tick == 12 + 20 + 16)
    // Pausing forgives what was owed.
    for _ in 0..<3 { d.tick(steps: 1) }
    d.tick(.pause)
    d.tick(.play)
    #expect(d.machine.tick == 48 + 3 + 4)
  }

  @Test func aSeekCatchesUpWithinTheSliceAndSendsNoFramesOnTheWay() throws {
    var d = try CompareDriver(base: Self.base, variants: [[:], [:]], end: 600)
    d.tick(.join(d.viewer))
    let before = d.all("frames").count
    d.tick(.seek(100), steps: 40)
    #expect(d.machine.tick == 40 && d.machine.target == 100)
    #expect(d.all("frames").count == before)
    d.tick(steps: 40)
    d.tick(steps: 40)
    #expect(d.machine.tick == 100 && d.machine.target == nil)
    #expect(d.all("frames").last?["tick"]?.intValue == 100)
    #expect(!d.machine.wantsTick)
  }
}
