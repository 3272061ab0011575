import JSON
import Simulation

/// One viewer's replay of a stored session, with no I/O and no clock: the model rebuilt from
/// its start and input log, stepped at 0.25x to 8x, with pause and seek.
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
  }

  static let speeds: ClosedRange<Double> = 0.25...8
  /// Most events sent for one step; the rest are counted in a `dropped` event.
  static let maxEventsPerStep = 32

  let id: String
  /// The last tick there is to show.
  let end: UInt64
  private let start: any Simulation
  private let inputs: [UInt64: [CheckedInput]]
  private(set) var model: any Simulation
  private(set) var playing = true
  private(set) var speed = 1.0
  private var credit = 0.0
  /// The tick a seek is catching up to.
  private(set) var target: UInt64?
  private var greeted = false

  /// A replay from `start` (the model at tick 0) of `inputs` (by the tick whose step applied
  /// them), to `end`.
  init(id: String, start: any Simulation, inputs: [UInt64: [CheckedInput]], end: UInt64) {
    self.id = id
    self.start = start
    self.model = start
    self.inputs = inputs
    self.end = end
  }

  /// One game-loop tick: applies `commands`, then steps as far as speed, seek and
  /// `mayStepAgain` (asked every 16 steps) allow, and sends the newest frame.
  mutating func tick(
    _ commands: [Command], mayStepAgain: () -> Bool, perform: (Action) -> Void
  ) {
    var changed = !greeted
    for command in commands {
      switch command {
      case .play:
        playing = true
        if model.tick >= end { seek(to: 0) }
      case .pause:
        playing = false
      case .speed(let value):
        speed = value
      case .seek(let tick):
        seek(to: min(tick, end))
      }
      changed = true
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
      changed = true
      // The events of the skipped steps were not sent: a fresh hello carries the whole state.
      greet(perform)
    } else if playing {
      credit += speed
      let whole = UInt64(credit)
      credit -= Double(whole)
      stepToward(
        min(end, model.tick + whole), sendingEvents: true, mayStepAgain: mayStepAgain,
        perform: perform)
      if model.tick >= end {
        playing = false
        changed = true
      }
    }
    if model.tick != before || changed { perform(.send(.frame(model), latestOnly: true)) }
    if changed { perform(.send(.replayStatus(status), latestOnly: false)) }
  }

  var status: ServerMessage.ReplayStatus {
    ServerMessage.ReplayStatus(
      tick: model.tick, end: end, playing: playing, speed: speed, seeking: target != nil)
  }

  private mutating func seek(to tick: UInt64) {
    // Back means from the start: a replay is exact only from tick 0.
    if tick < model.tick { model = start }
    target = tick
  }

  private mutating func stepToward(
    _ goal: UInt64, sendingEvents: Bool, mayStepAgain: () -> Bool, perform: (Action) -> Void
  ) {
    while model.tick < goal {
      let events = model.step(checked: inputs[model.tick + 1] ?? [])
      if sendingEvents {
        let messages = ServerMessage.events(
          events, tick: model.tick, limit: Self.maxEventsPerStep)
        for message in messages { perform(.send(message, latestOnly: false)) }
      }
      if model.tick % 16 == 0 && !mayStepAgain() { break }
    }
  }

  private func greet(_ perform: (Action) -> Void) {
    let hello = ServerMessage.Hello(
      session: id, role: .spectator, running: playing, replayEnd: end, model: model)
    perform(.send(.hello(hello), latestOnly: false))
  }
}
