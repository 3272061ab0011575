import JSON
import Simulation

/// A compare group's rules, with no I/O and no clock: 2 to 4 panes of one model, built from the
/// same seed with their own configs, stepped together as one unit so that every pane is always
/// at the same tick, with play, pause, step, speed and seek (re-simulated from the start, which
/// is exact since the models are deterministic and take no input).
///
/// After every step it compares the panes' frames (`Simulation.writeFrame`): the first tick at
/// which they differ is the group's divergence, told to each viewer once, before or with the
/// frames of that tick. `Viewer` is whatever stands for one connection.
struct CompareMachine<Viewer: AnyObject & Sendable> {
  /// A viewer's command, applied at the next game-loop tick.
  enum Command: Sendable {
    case join(Viewer)
    case leave(Viewer)
    case play
    case pause
    /// Pauses and advances this many ticks (to the end at most).
    case step(Int)
    /// Ticks per game-loop tick, within `speeds`.
    case speed(Double)
    /// Goes to this tick (at most `end`), stepping again from the start when it is behind.
    case seek(UInt64)
  }

  /// What to send, in order.
  enum Action: Sendable {
    /// `latestOnly`: a busy viewer gets only the newest of these (frames).
    case send([UInt8], to: [Viewer], latestOnly: Bool)
  }

  static var speeds: ClosedRange<Double> { PlaybackMessage.speeds }

  let id: String
  /// The last tick there is to show.
  let end: UInt64
  /// Each pane at tick 0, where a seek back starts.
  private let starts: [any Simulation]
  private(set) var panes: [any Simulation]
  private(set) var viewers: [Viewer] = []
  private(set) var playing = false
  private(set) var speed = 1.0
  private var credit = 0.0
  /// Asked-for steps still to run.
  private(set) var waitingSteps: UInt64 = 0
  /// The tick a seek is catching up to.
  private(set) var target: UInt64?
  /// The first tick at which the panes' frames differ, once a step has reached it.
  private(set) var diverged: UInt64?
  /// The last tick whose frames were compared: beyond it, `diverged` is not known yet.
  private var comparedUpTo: UInt64 = 0

  /// A group of `panes` (at tick 0) that ends at `end`.
  init(id: String, panes: [any Simulation], end: UInt64) {
    self.id = id
    self.starts = panes
    self.panes = panes
    self.end = end
    if !Self.framesAgree(panes) { diverged = panes.first?.tick ?? 0 }
  }

  var tick: UInt64 { panes.first?.tick ?? 0 }

  /// Whether a tick would do anything without a command: catch up a seek, step, or play.
  var wantsTick: Bool {
    !viewers.isEmpty && (target != nil || waitingSteps > 0 || (playing && tick < end))
  }

  /// One game-loop tick: applies `commands`, then steps as far as seek, asked-for steps or
  /// speed and `mayStepAgain` (asked before every step of all panes: a `StepSlice`) allow, and
  /// sends the newest frames.
  mutating func tick(_ commands: [Command], mayStepAgain: () -> Bool, perform: (Action) -> Void) {
    var changed = false
    var joined: [Viewer] = []
    for command in commands {
      switch command {
      case .join(let viewer):
        viewers.append(viewer)
        joined.append(viewer)
      case .leave(let viewer):
        viewers.removeAll { $0 === viewer }
        joined.removeAll { $0 === viewer }
      case .play:
        playing = true
        waitingSteps = 0
        if tick >= end && target == nil { seek(to: 0) }
      case .pause:
        playing = false
        waitingSteps = 0
      case .step(let count):
        playing = false
        waitingSteps = min(end - min(end, target ?? tick), waitingSteps + UInt64(max(0, count)))
      case .speed(let value):
        speed = min(Self.speeds.upperBound, max(Self.speeds.lowerBound, value))
      case .seek(let goal):
        waitingSteps = 0
        seek(to: min(goal, end))
      }
      changed = true
    }
    for viewer in joined {
      perform(.send(hello, to: [viewer], latestOnly: false))
      if let diverged {
        perform(.send(Self.divergedMessage(diverged), to: [viewer], latestOnly: false))
      }
    }

    let before = tick
    if let goal = target {
      step(toward: goal, mayStepAgain: mayStepAgain, perform: perform)
      if tick == goal { target = nil }
    } else if waitingSteps > 0 {
      step(toward: tick + waitingSteps, mayStepAgain: mayStepAgain, perform: perform)
      waitingSteps -= tick - before
      if waitingSteps == 0 { changed = true }
    } else if playing {
      credit += speed
      let whole = UInt64(credit)
      credit -= Double(whole)
      step(toward: min(end, tick + whole), mayStepAgain: mayStepAgain, perform: perform)
    }
    if playing && tick >= end && target == nil {
      playing = false
      changed = true
    }
    // NB: no frames while a seek catches up: the viewer waits for the tick it asked for.
    if target == nil && (tick != before || changed) {
      perform(.send(frames, to: viewers, latestOnly: true))
    } else if !joined.isEmpty {
      perform(.send(frames, to: joined, latestOnly: true))
    }
    if changed || (tick != before && !playing) {
      perform(.send(status, to: viewers, latestOnly: false))
    }
  }

  private mutating func seek(to goal: UInt64) {
    if goal < tick {
      panes = starts
      credit = 0
    }
    target = goal == tick ? nil : goal
  }

  /// Steps every pane, together, until `goal` or until `mayStepAgain` says no; compares the
  /// frames after each step until they first differ.
  private mutating func step(
    toward goal: UInt64, mayStepAgain: () -> Bool, perform: (Action) -> Void
  ) {
    while tick < goal, mayStepAgain() {
      for index in panes.indices { _ = panes[index].step(checked: []) }
      let now = tick
      guard diverged == nil, now > comparedUpTo else { continue }
      comparedUpTo = now
      if !Self.framesAgree(panes) {
        diverged = now
        perform(.send(Self.divergedMessage(now), to: viewers, latestOnly: false))
      }
    }
  }

  /// Whether every pane writes the same frame.
  static func framesAgree(_ panes: [any Simulation]) -> Bool {
    guard let first = panes.first else { return true }
    let reference = frameBytes(first)
    return panes.dropFirst().allSatisfy { frameBytes($0) == reference }
  }

  static func frameBytes(_ model: any Simulation) -> [UInt8] {
    var writer = JSONWriter(capacity: 1024)
    writer.beginObject()
    model.writeFrame(into: &writer)
    writer.endObject()
    return writer.bytes
  }
}
