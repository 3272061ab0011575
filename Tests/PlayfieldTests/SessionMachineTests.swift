import JSON
import Simulation
import Testing

@testable import Playfield

/// One connection, named for the test's words.
private final class Peer: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

extension SessionMachine.Command {
  /// An input as the counter checks it.
  static func input(_ message: JSONValue) -> Self {
    // NB: a test's message always checks.
    .input(try! Counter.checkedInput(from: message, sentBy: .controller)!)
  }
}

/// A session driven tick by tick with a manual clock; actions are read back as short words.
private struct Driver {
  typealias Machine = SessionMachine<Peer>
  var machine: Machine
  /// Seconds since 1970.
  var now = 1_000.0
  /// How many asked-for steps one tick may run.
  var stepsPerTick = Int.max
  var replies: [SessionState] = []

  init(
    running: Bool = true, goal: Int = 1_000, idlePause: Double = 30,
    clock: SessionClock = .realtime, snapshotInputs: Int = .max
  ) throws {
    var configuration = Machine.Configuration()
    configuration.clock = clock
    configuration.snapshotInputs = snapshotInputs
    configuration.idlePause = idlePause
    configuration.maxEventsPerTick = 3
    let model = try Counter(config: ["goal": .number(goal)], seed: 1)
    machine = Machine(id: "s1", model: model, running: running, configuration: configuration)
  }

  mutating func tick(_ commands: Machine.Command..., after seconds: Double = 1.0 / 60) -> [String] {
    now += seconds
    var words: [String] = []
    var allowed = stepsPerTick
    machine.tick(
      commands, now: now,
      mayStepAgain: {
        allowed -= 1
        return allowed > 0
      },
      perform: { if let word = Self.word($0) { words.append(word) } })
    return words
  }

  /// An on-demand session's work off the tick.
  mutating func drain(_ commands: Machine.Command...) -> [String] {
    var words: [String] = []
    machine.drain(
      commands, now: now, perform: { if let word = Self.word($0) { words.append(word) } })
    return words
  }

  /// An on-demand session on the game loop's tick.
  mutating func show(after seconds: Double = 1.0 / 60) -> [String] {
    now += seconds
    var words: [String] = []
    machine.show(now: now, perform: { if let word = Self.word($0) { words.append(word) } })
    return words
  }

  /// The action in a word; nil for the inputs applied per connection (`applied`, the `stored`
  /// watermark's), which the tests here leave out.
  static func word(_ action: Machine.Action) -> String? {
    switch action {
    case .applied: nil
    case .send(let message, let peer): "\(word(message)) to \(peer.name)"
    case .broadcast(let message, let peers, let delivery):
      "\(word(message)) \(delivery) to \(peers.map(\.name).joined(separator: ","))"
    case .journalInputs(let inputs, let tick): "journal \(inputs.count) at \(tick)"
    case .snapshot(_, let tick): "snapshot at \(tick)"
    case .gameEnded(let result): "game over \(result.score) at \(result.tick)"
    case .publish(let progress):
      "publish \(progress.tick) \(progress.phase) \(progress.spectators)+\(progress.controllers)"
    case .reply(_, let state): "reply \(state.tick)"
    case .disconnect(let peer, _): "disconnect \(peer.name)"
    case .refused(let reason, let peer, _): "refused \(reason) to \(peer?.name ?? "nobody")"
    }
  }

  static func word(_ message: ServerMessage) -> String {
    switch message {
    case .hello(let hello): "hello \(hello.role) \(hello.model.tick)"
    case .frame(let model): "frame \(model.tick)"
    case .stepped(let model, let id): "frame \(model.tick) id \(id?.stringValue ?? "-")"
    case .event(let event, let tick): "event \(event.name) \(tick)"
    case .dropped(let count, _): "dropped \(count)"
    case .status(let status): "status \(status.tick) q\(status.queued)"
    case .replayStatus(let status): "replay-status \(status.tick)"
    case .error(let error): "error \(error.code)"
    case .pong: "pong"
    case .ack: "ack"
    case .stored(let inputs, _, _): "stored \(inputs)"
    case .unstored(let inputs, _, _): "unstored \(inputs)"
    case .answer(let query, let body, let id):
      "answer \(query) \(String(decoding: body, as: UTF8.self)) \(id.map { "\($0)" } ?? "-")"
    }
  }
}

@Suite struct SessionMachineTests {
  @Test func aJoiningClientGetsHelloFrameAndStatusThenEveryFrame() throws {
    var d = try Driver()
    let a = Peer("a")
    #expect(d.tick() == ["publish 1 running 0+0"])
    #expect(
      d.tick(.join(a, .controller)) == [
        "hello controller 1 to a", "frame 1 to a", "status 1 q0 to a", "frame 2 stream to a",
        "status 2 q0 reliable to a", "publish 2 running 0+1",
      ])
    #expect(d.tick() == ["frame 3 stream to a", "publish 3 running 0+1"])
  }

  @Test func inputsAreAppliedInOrderJournaledAndTheirEventsBroadcast() throws {
    var d = try Driver()
    let a = Peer("a")
    _ = d.tick(.join(a, .controller))
    let add: JSONValue = ["type": "add", "amount": 2]
    #expect(
      d.tick(.input(add), .input(add)) == [
        "journal 2 at 2", "frame 2 stream to a", "event added 2 reliable to a",
        "event added 2 reliable to a", "publish 2 running 0+1",
      ])
    #expect((d.machine.model as? Counter)?.total == 4)
  }

  @Test func aQueryIsAnsweredAfterTheStepToTheAskerAloneAndNeverJournaled() throws {
    var d = try Driver()
    let a = Peer("a")
    let b = Peer("b")
    _ = d.tick(.join(a, .controller), .join(b, .spectator))
    let add: JSONValue = ["type": "add", "amount": 2]
    #expect(
      d.tick(.input(add), .query(a, ["type": "total", "more": 1], .controller, id: "q1")) == [
        "journal 1 at 2", "frame 2 stream to a,b", "event added 2 reliable to a,b",
        "answer total 3 \"q1\" to a", "publish 2 running 1+1",
      ])
    // A query the state refuses is the asker's error, with its id; nothing else happens.
    let words = d.tick(.query(b, ["type": "total", "more": -3], nil, id: 7))
    #expect(words.contains("error refused to b"))
    #expect(!words.contains { $0.hasPrefix("journal") })
    #expect((d.machine.model as? Counter)?.total == 2)
    // A malformed query is a bad field, not a refusal (docs/protocol.md).
    let malformed = d.tick(.query(b, ["type": "total", "more": "two"], nil, id: 8))
    #expect(malformed.contains("error bad-field to b"))
  }

  @Test func eventsBeyondTheLimitAreCountedInOneDroppedEvent() throws {
    var d = try Driver()
    _ = d.tick(.join(Peer("a"), .spectator))
    let add: JSONValue = ["type": "add", "amount": 1]
    let words = d.tick(.input(add), .input(add), .input(add), .input(add), .input(add))
    #expect(words.filter { $0.hasPrefix("event") }.count == 3)
    #expect(words.contains("dropped 2 reliable to a"))
  }

  @Test func gameOverIsATypedEventNotAName() throws {
    var d = try Driver(goal: 3)
    #expect(
      d.tick(.input(["type": "add", "amount": 5])) == [
        "game over 5 at 1", "journal 1 at 1", "publish 1 running 0+0",
      ])
  }

  @Test func stoppedSessionsStepOnlyWhenAskedAndInputsWaitForTheStep() throws {
    var d = try Driver(running: false)
    let a = Peer("a")
    _ = d.tick(.join(a, .controller))
    #expect(d.tick() == [])
    #expect(d.tick(.input(["type": "add", "amount": 1])) == ["status 0 q1 reliable to a"])
    #expect(
      d.tick(.step(2)) == [
        "journal 1 at 1", "frame 1 latestOnly to a", "event added 1 reliable to a",
        "frame 2 latestOnly to a", "publish 2 stopped 0+1",
      ])
    #expect(
      d.tick(.start) == [
        "frame 3 stream to a", "status 3 q0 reliable to a", "publish 3 running 0+1",
      ])
    #expect(
      d.tick(.step(5)) == ["frame 4 stream to a", "publish 4 running 0+1"],
      "running: no extra steps")
    #expect(d.tick(.stop) == ["status 4 q0 reliable to a", "publish 4 stopped 0+1"])
  }

  @Test func aClientsStepIsAcknowledgedAfterItsLastTicksEvents() throws {
    var d = try Driver(running: false)
    d.stepsPerTick = 2
    let a = Peer("a")
    _ = d.tick(.join(a, .controller))
    #expect(
      d.tick(.input(["type": "add", "amount": 1]), .stepFor(a, count: 3, id: "s")) == [
        "journal 1 at 1", "frame 1 latestOnly to a", "event added 1 reliable to a",
        "frame 2 latestOnly to a", "publish 2 stopped 0+1",
      ], "no ack before its last tick")
    #expect(
      d.tick(.stepFor(a, count: 1, id: nil), .stepFor(a, count: 1, id: 9)) == [
        "frame 3 latestOnly to a", "ack to a", "frame 4 latestOnly to a",
        "publish 4 stopped 0+1",
      ], "each ack right after its own last tick; a step without an id gets none")
    #expect(d.tick() == ["frame 5 latestOnly to a", "ack to a", "publish 5 stopped 0+1"])
  }

  @Test func aClientsStepToARunningSessionIsRefusedAndStepsNothing() throws {
    var d = try Driver(running: true)
    let a = Peer("a")
    _ = d.tick(.join(a, .controller))
    #expect(
      d.tick(.stepFor(a, count: 5, id: "s")) == [
        "error running to a", "frame 2 stream to a", "publish 2 running 0+1",
      ])
    // A stop sent before the step applies first: the step runs.
    #expect(
      d.tick(.stop, .stepFor(a, count: 1, id: "t")) == [
        "frame 3 latestOnly to a", "ack to a", "status 3 q0 reliable to a",
        "publish 3 stopped 0+1",
      ])
  }

  @Test func askedForStepsStopAtTheBudgetAndGoOnNextTick() throws {
    var d = try Driver(running: false)
    d.stepsPerTick = 3
    _ = d.tick(.step(5))
    #expect(d.machine.model.tick == 3)
    _ = d.tick()
    #expect(d.machine.model.tick == 5)
    _ = d.tick()
    #expect(d.machine.model.tick == 5)
  }

  @Test func anUnwatchedSessionPausesAndResumesWhereItWasWhenSomeoneJoins() throws {
    var d = try Driver(idlePause: 30)
    let a = Peer("a")
    _ = d.tick(.join(a, .spectator))
    _ = d.tick(.leave(a))
    let left = d.now
    _ = d.tick(after: 29)
    #expect(d.machine.phase == .running)
    #expect(d.machine.idleSince == left)
    let before = d.machine.model.tick
    #expect(d.tick(after: 1) == ["publish \(before) pausedForIdle 0+0"])
    #expect(d.machine.phase == .pausedForIdle)
    #expect(d.tick(after: 600) == [], "paused: no steps, nothing to publish")
    let words = d.tick(.join(Peer("b"), .spectator))
    #expect(words.first == "hello spectator \(before) to b")
    #expect(d.machine.model.tick == before + 1)
    #expect(d.machine.phase == .running && d.machine.idleSince == nil)
  }

  @Test func aStoppedSessionStaysStoppedWhenSomeoneJoins() throws {
    var d = try Driver(running: false, idlePause: 1)
    _ = d.tick(after: 5)
    _ = d.tick(.join(Peer("a"), .spectator))
    #expect(d.machine.phase == .stopped)
  }

  @Test func snapshotsEveryIntervalOfTicks() throws {
    var d = try Driver()
    var snapshots: [String] = []
    for _ in 0..<601 { snapshots += d.tick().filter { $0.hasPrefix("snapshot") } }
    #expect(snapshots == ["snapshot at 300", "snapshot at 600"])
  }

  @Test func anOnDemandSessionAlsoSnapshotsEverySoManyLoggedInputs() throws {
    var d = try Driver(running: false, clock: .onDemand, snapshotInputs: 3)
    let a = Peer("a")
    _ = d.drain(.join(a, .controller))
    let add: JSONValue = ["type": "add", "amount": 1]
    var snapshots: [String] = []
    for _ in 0..<7 {
      snapshots += d.drain(.input(add), .stepFor(a, count: 1, id: nil)).filter {
        $0.hasPrefix("snapshot")
      }
    }
    // Steps without inputs log nothing, so they count only toward the tick interval.
    snapshots += d.drain(.stepFor(a, count: 20, id: nil)).filter { $0.hasPrefix("snapshot") }
    #expect(snapshots == ["snapshot at 3", "snapshot at 6"])
  }

  @Test func aRealtimeSessionSnapshotsOnlyEveryIntervalOfTicks() throws {
    var d = try Driver(snapshotInputs: 3)
    var snapshots: [String] = []
    for _ in 0..<10 {
      snapshots += d.tick(.input(["type": "add", "amount": 1])).filter { $0.hasPrefix("snapshot") }
    }
    #expect(snapshots.isEmpty)
  }

  @Test func leavingClientsGetNothingMore() throws {
    var d = try Driver()
    let a = Peer("a")
    let b = Peer("b")
    _ = d.tick(.join(a, .controller), .join(b, .spectator))
    #expect(
      d.tick(.leave(a)) == [
        "frame 2 stream to b", "status 2 q0 reliable to b", "publish 2 running 1+0",
      ])
    #expect(d.machine.removeAllClients().map(\.name) == ["b"])
    #expect(d.machine.clients.isEmpty)
  }

  @Test func inspectRepliesWithTheStateAfterTheTick() throws {
    var d = try Driver()
    #expect(d.tick(.inspect({ _ in })).last == "reply 1")
  }

  // MARK: On demand

  @Test func anOnDemandStepRunsAtOnceAndAnswersOnlyWhoAskedWithItsID() throws {
    var d = try Driver(running: false, clock: .onDemand)
    let a = Peer("a")
    let b = Peer("b")
    #expect(
      d.drain(.join(a, .controller), .join(b, .spectator)) == [
        "hello controller 0 to a", "frame 0 to a", "status 0 q0 to a",
        "hello spectator 0 to b", "frame 0 to b", "status 0 q0 to b",
        "status 0 q0 reliable to a,b", "publish 0 stopped 1+1",
      ])
    let add: JSONValue = ["type": "add", "amount": 2]
    #expect(
      d.drain(.input(add), .stepFor(a, count: 3, id: "s1")) == [
        "journal 1 at 1", "event added 1 reliable to a,b", "frame 3 id s1 to a",
      ])
    #expect(d.machine.model.tick == 3)
    #expect((d.machine.model as? Counter)?.total == 2)
  }

  @Test func onTheTickWatchersGetTheLatestFrameAndTheAskerNothingMore() throws {
    var d = try Driver(running: false, clock: .onDemand)
    let a = Peer("a")
    let b = Peer("b")
    _ = d.drain(.join(a, .controller), .join(b, .spectator))
    _ = d.drain(.stepFor(a, count: 1, id: nil), .stepFor(a, count: 4, id: 7))
    #expect(d.show() == ["frame 5 stream to b", "publish 5 stopped 1+1"])
    #expect(d.show() == [], "nothing new: nothing sent, nothing stored")
    _ = d.drain(.stepFor(a, count: 1, id: nil))
    #expect(d.show() == ["frame 6 stream to b", "publish 6 stopped 1+1"])
  }

  @Test func theGameLoopNeverStepsAnOnDemandSession() throws {
    var d = try Driver(running: false, clock: .onDemand)
    let a = Peer("a")
    _ = d.drain(.join(a, .controller), .start, .step(5))
    for _ in 0..<10 { _ = d.show() }
    #expect(d.machine.model.tick == 0)
    #expect(d.machine.phase == .stopped)
  }

  @Test func inputsSentAfterAStepWaitForTheNextStep() throws {
    var d = try Driver(running: false, clock: .onDemand)
    let a = Peer("a")
    let add: JSONValue = ["type": "add", "amount": 1]
    _ = d.drain(.join(a, .controller), .stepFor(a, count: 2, id: nil), .input(add))
    #expect((d.machine.model as? Counter)?.total == 0)
    #expect(d.machine.status.queued == 1)
    #expect(d.drain(.stepFor(a, count: 1, id: nil)).first == "journal 1 at 3")
    #expect((d.machine.model as? Counter)?.total == 1)
  }

  @Test func aStepLongerThanASliceGoesOnInTheNextAndIsAnsweredOnce() throws {
    var d = try Driver(running: false, clock: .onDemand)
    let a = Peer("a")
    _ = d.drain(.join(a, .controller))
    var commands: [Driver.Machine.Command] = [
      .stepFor(a, count: 5, id: "x"), .input(["type": "add", "amount": 1]),
    ]
    var allowed = 3
    var words: [String] = []
    let perform: (Driver.Machine.Action) -> Void = {
      if let word = Driver.word($0) { words.append(word) }
    }
    d.machine.drain(
      &commands, now: d.now,
      mayStep: {
        allowed -= 1
        return allowed >= 0
      }, perform: perform)
    #expect(d.machine.model.tick == 3)
    #expect(words.isEmpty, "no answer before the last tick")
    #expect(commands.count == 2)
    d.machine.drain(&commands, now: d.now, mayStep: { true }, perform: perform)
    #expect(words == ["frame 5 id x to a"])
    #expect(commands.isEmpty)
    #expect(d.machine.status.queued == 1, "the input after the step waits for the next one")
  }
}
