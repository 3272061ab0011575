import JSON
import Simulation

/// One viewer's replay of a stored session, with no I/O and no clock: the model rebuilt from
/// its start and input log, stepped at 0.25x to 8x, with pause and seek.
///
/// The log (`ReplayLog`) is read a tick at a time as the model steps; a seek starts from the
/// nearest snapshot when that is closer than where the model is.
struct ReplayMachine {
  /// A viewer's command.
  enum Command: Sendable, Equatable {
    case play
    case pause
    /// Ticks per game-loop tick, 0.25 to 8.
    case speed(Double)
    case seek(UInt64)
  }

  /// What to send the viewer, in order.
  enum Action: Sendable {
    /// `latestOnly`: a busy viewer gets only the newest of these (frames).
    case send(ServerMessage, latestOnly: Bool)
    /// The log cannot be read: tell the viewer why and end the replay.
    case fail(String)
  }

  static let speeds: ClosedRange<Double> = 0.25...8
  /// Most events sent for one step; the rest are counted in a `dropped` event.
  static let maxEventsPerStep = 32

  let id: String
  /// The last tick there is to show.
  let end: UInt64
  private let start: any Simulation
  private var log: any ReplayLog
  private(set) var model: any Simulation
  private(set) var playing = true
  private(set) var speed = 1.0
  private var credit = PlayCredit()
  /// Where play at this speed began: frames are sent only whole speed steps from here.
  private var anchor: UInt64 = 0
  /// The tick a seek is catching up to.
  private(set) var target: UInt64?
  private var greeted = false
  /// Why the log could not be read, once it could not.
  private(set) var failure: String?

  /// A replay from `start` (the model at tick 0, or at the earliest kept snapshot of a compacted
  /// log, where every seek earlier starts) of `log`, to `end`.
  init(id: String, start: any Simulation, log: any ReplayLog, end: UInt64) {
    self.id = id
    self.start = start
    self.model = start
    self.anchor = start.tick
    self.log = log
    self.end = end
  }

  /// One game-loop tick: applies `commands`, then steps as far as speed, seek and
  /// `mayStepAgain` (asked before every step: a `StepSlice`) allow, and sends the newest frame.
  mutating func tick(
    _ commands: [Command], mayStepAgain: () -> Bool, perform: (Action) -> Void
  ) {
    guard failure == nil else { return }
    defer {
      if let failure { perform(.fail(failure)) }
    }
    var changed = !greeted
    for command in commands {
      credit.forgetOwed()
      switch command {
      case .play:
        playing = true
        if model.tick >= end { seek(to: start.tick) }
      case .pause:
        playing = false
      case .speed(let value):
        speed = value
      case .seek(let tick):
        // NB: a compacted log starts at its earliest kept snapshot: nothing before it.
        seek(to: max(start.tick, min(tick, end)))
      }
      changed = true
      anchor = model.tick
    }
    if !greeted {
      greeted = true
      greet(perform)
    }

    let before = model.tick
    if let goal = target {
      stepToward(goal, sendingEvents: false, mayStepAgain: mayStepAgain, perform: perform)
      guard model.tick == goal else {
        // NB: no frames while a seek catches up: they would not match the state the viewer
        // rebuilt from the last hello.
        if changed { perform(.send(.replayStatus(status), latestOnly: false)) }
        return
      }
      target = nil
      anchor = model.tick
      changed = true
      // The events of the skipped steps were not sent: a fresh hello carries the whole state.
      greet(perform)
    } else if playing {
      // NB: owing whole ticks, and skipping a tick's credit whole past 4 frames' worth, keeps
      // every frame a whole number of speed steps apart.
      let goal = min(end, model.tick + credit.earn(at: speed, cap: 4 * frameStep))
      stepToward(goal, sendingEvents: true, mayStepAgain: mayStepAgain, perform: perform)
      credit.leave(goal - min(goal, model.tick))
      if model.tick >= end {
        playing = false
        changed = true
      }
    }
    // A slice cut between speed steps holds the frame: at 4x, the viewer sees 4-tick steps.
    let onStep = (model.tick - min(anchor, model.tick)) % frameStep == 0
    if (model.tick != before && onStep) || changed {
      perform(.send(.frame(model), latestOnly: true))
    }
    if changed { perform(.send(.replayStatus(status), latestOnly: false)) }
  }

  /// Whether a tick would do anything without a command: greet, catch up a seek, or play.
  var wantsTick: Bool {
    failure == nil && (!greeted || target != nil || (playing && model.tick < end))
  }

  /// Ticks between frames while playing: the speed at whole speeds, else every tick.
  private var frameStep: UInt64 {
    speed >= 1 && speed == speed.rounded() ? UInt64(speed) : 1
  }

  var status: ServerMessage.ReplayStatus {
    ServerMessage.ReplayStatus(
      tick: model.tick, end: end, playing: playing, speed: speed, seeking: target != nil)
  }

  private mutating func seek(to tick: UInt64) {
    let current = model.tick
    // A snapshot is the live model's exact state at its tick, so starting there ends in the
    // same state as stepping from tick 0; it is used only when it saves steps.
    if let snapshot = log.snapshot(atOrBefore: tick), snapshot.tick <= tick,
      snapshot.tick > current || tick < current
    {
      model = snapshot
      log.restart(after: snapshot.tick)
    } else if tick < current {
      model = start
      log.restart(after: start.tick)
    }
    target = tick
  }

  private mutating func stepToward(
    _ goal: UInt64, sendingEvents: Bool, mayStepAgain: () -> Bool, perform: (Action) -> Void
  ) {
    while model.tick < goal, failure == nil, mayStepAgain() {
      let inputs: [CheckedInput]
      do {
        // Not readable now (the database is busy): the rest of the way on a later tick.
        guard let read = try log.inputs(forTick: model.tick + 1) else { break }
        inputs = read
      } catch {
        failure = "the replay's input log cannot be read: \(APIError.told(error))"
        break
      }
      let events = model.step(checked: inputs)
      if sendingEvents {
        let messages = ServerMessage.events(
          events, tick: model.tick, limit: Self.maxEventsPerStep)
        for message in messages { perform(.send(message, latestOnly: false)) }
      }
    }
  }

  private func greet(_ perform: (Action) -> Void) {
    let hello = ServerMessage.Hello(
      session: id, role: .spectator, running: playing, replayEnd: end, model: model)
    perform(.send(.hello(hello), latestOnly: false))
  }
}
