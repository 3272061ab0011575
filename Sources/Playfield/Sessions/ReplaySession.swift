import HTTP
import JSON
import Server
import Simulation
import Storage
import Synchronization
import WebSocket

/// One viewer's replay of a stored session: a private model rebuilt from the session's config,
/// seed and input log, stepped by the game loop at 0.25x to 8x, with pause and seek.
///
/// Any thread may `send`; only the game loop calls `advance`.
final class ReplaySession: @unchecked Sendable {
  /// A viewer's command.
  enum Command: Sendable {
    case play
    case pause
    /// Ticks per game-loop tick, 0.25 to 8.
    case speed(Double)
    case seek(UInt64)
    case close
  }

  let id: String
  let stored: StoredSession
  let socket: WebSocket
  /// The last tick there is to show.
  let end: UInt64
  /// Most milliseconds of stepping per game-loop tick (catching up after a seek).
  static let budget: Duration = .milliseconds(4)
  static let speeds: ClosedRange<Double> = 0.25...8

  private let inbox = Mutex<[Command]>([])
  private let closed = Atomic<Bool>(false)
  private let inputs: [UInt64: [JSONValue]]
  private let type: any Simulation.Type

  // Owned by the game loop.
  private var model: any Simulation
  private var playing = true
  private var speed = 1.0
  private var credit = 0.0
  private var target: UInt64?
  private var greeted = false

  init(stored: StoredSession, inputs: [LoggedInput], socket: WebSocket) throws {
    guard let type = Simulations.named(stored.kind) else {
      throw SimulationError(field: "kind", message: "unknown kind \(stored.kind)")
    }
    self.type = type
    self.id = stored.id
    self.stored = stored
    self.socket = socket
    self.end = UInt64(max(stored.tick, inputs.last?.tick ?? 0))
    self.model = try type.init(config: try JSONValue.parse(stored.config), seed: stored.seed)
    var byTick: [UInt64: [JSONValue]] = [:]
    for input in inputs {
      byTick[UInt64(input.tick), default: []].append(try JSONValue.parse(input.input))
    }
    self.inputs = byTick
  }

  var isClosed: Bool { closed.load(ordering: .relaxed) }

  func send(_ command: Command) {
    if case .close = command { closed.store(true, ordering: .relaxed) }
    inbox.withLock { $0.append(command) }
  }

  /// Applies commands, then steps as far as speed, seek and the time budget allow, and sends
  /// the newest frame.
  func advance() {
    let commands = inbox.withLock { commands in
      let taken = commands
      commands.removeAll()
      return taken
    }
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
      case .close:
        return
      }
      changed = true
    }
    if !greeted {
      greeted = true
      greet()
    }

    let before = model.tick
    if let goal = target {
      stepToward(goal, sendingEvents: false)
      guard model.tick == goal else {
        // NB: no frames while a seek catches up: they would not match the state the viewer
        // rebuilt from the last hello.
        if changed { socket.send(.replayStatus(status)) }
        return
      }
      target = nil
      changed = true
      // The events of the skipped steps were not sent: a fresh hello carries the whole state.
      greet()
    } else if playing {
      credit += speed
      let whole = UInt64(credit)
      credit -= Double(whole)
      stepToward(min(end, model.tick + whole), sendingEvents: true)
      if model.tick >= end {
        playing = false
        changed = true
      }
    }
    if model.tick != before || changed { socket.send(frame(), latestOnly: true) }
    if changed { socket.send(.replayStatus(status)) }
  }

  private func seek(to tick: UInt64) {
    if tick < model.tick {
      // Back to the start: a replay is exact only from tick 0.
      if let fresh = try? type.init(config: try JSONValue.parse(stored.config), seed: stored.seed) {
        model = fresh
      }
    }
    target = tick
  }

  /// Steps toward `goal` until it is reached or the time budget is spent; while playing, sends
  /// each step's events as the live session did.
  private func stepToward(_ goal: UInt64, sendingEvents: Bool) {
    let started = MonotonicTime.now()
    while model.tick < goal {
      let events = model.step(inputs: inputs[model.tick + 1] ?? [])
      if sendingEvents && !events.isEmpty {
        let messages = ServerMessage.events(
          events, tick: model.tick, limit: LiveSession.maxEventsPerTick)
        for message in messages { socket.send(message) }
      }
      if model.tick % 16 == 0 && MonotonicTime.now() - started > Self.budget { break }
    }
  }

  private func greet() {
    let hello = ServerMessage.Hello(
      session: id, role: .spectator, running: playing, replayEnd: end, model: model)
    socket.send(.hello(hello))
  }

  private func frame() -> EncodedMessage {
    EncodedMessage(.text(String(decoding: ServerMessage.frame(model).bytes, as: UTF8.self)))
  }

  private var status: ServerMessage.ReplayStatus {
    ServerMessage.ReplayStatus(
      tick: model.tick, end: end, playing: playing, speed: speed, seeking: target != nil)
  }
}
