import JSON
import Simulation

/// A compare group's rules, with no I/O and no clock: 2 to 4 panes of one model (built from the
/// same seed with their own configs, or recordings of stored sessions), stepped together as one
/// unit so that every pane is always at the same group tick (its own tick shifted by its
/// offset), with play, pause, step, speed, seek (re-simulated from the start, which is exact
/// since the models are deterministic and recordings replay their logs) and a loop between two
/// marks.
///
/// Whenever every pane has reached a new group tick it compares the panes' frames
/// (`Simulation.writeFrame`): the first tick at which they differ is the group's divergence,
/// told to each viewer once, before or with the frames of that tick. `Viewer` is whatever
/// stands for one connection.
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
    /// While playing, reaching the range's upper bound goes on from its lower bound; nil clears.
    case loop(ClosedRange<UInt64>?)
    /// Pane `pane` (an index) shows its run `value` ticks ahead of the group from now on.
    case offset(pane: Int, value: Int)
    /// Whether this viewer wants the ambient pane played (it is, while any viewer does; none
    /// does on joining).
    case ambient(Viewer, playing: Bool)
  }

  /// What to send, in order.
  enum Action: Sendable {
    /// `latestOnly`: a busy viewer gets only the newest of these (frames).
    case send([UInt8], to: [Viewer], latestOnly: Bool)
    /// A recording's log cannot be read: tell the viewers why and end the group.
    case fail(String, to: [Viewer])
  }

  static var speeds: ClosedRange<Double> { PlaybackMessage.speeds }

  let id: String
  /// The last tick there is to show.
  let end: UInt64
  /// The readouts each `frames` carries, by name, and where each is in the model's list.
  let readouts: [String]
  private let readoutIndices: [Int]
  private(set) var panes: [ComparePane]
  /// The group's tick: every pane is at (or catching up to) its own tick for it.
  private(set) var tick: UInt64 = 0
  private(set) var viewers: [Viewer] = []
  private(set) var playing = false
  private(set) var speed = 1.0
  private(set) var loop: ClosedRange<UInt64>?
  private var credit = PlayCredit()
  /// Asked-for steps still to run.
  private(set) var waitingSteps: UInt64 = 0
  /// The tick a seek is catching up to.
  private(set) var target: UInt64?
  /// The first tick at which the panes' frames differ, once a step has reached it.
  private(set) var diverged: UInt64?
  /// The last tick whose frames were compared (nil: none yet): beyond it, `diverged` is not
  /// known yet.
  private var comparedUpTo: UInt64?
  /// Whether the viewers are owed the frames of `tick` once every pane has reached it.
  private var framesOwed = false
  /// Why a recording's log could not be read, once it could not.
  private(set) var failure: String?
  /// The ambient pane: one more run of the kind, outside the lockstep, that steps once a
  /// game-loop tick while a viewer wants it and starts again after `ambientEnd` own ticks.
  private(set) var ambient: ComparePane?
  let ambientEnd: UInt64
  /// The viewers that want the ambient pane played (none until one asks: a page that respects
  /// reduced motion, or is hidden, never starts it).
  private(set) var ambientViewers: [Viewer] = []

  /// A group of `panes` (each at its first tick) that ends at `end`, sending the `readouts`
  /// named (all the model's when nil; names it does not have are left out).
  init(
    id: String, panes: [ComparePane], end: UInt64, readouts: [String]? = nil,
    ambient: (pane: ComparePane, end: UInt64)? = nil
  ) {
    self.id = id
    self.panes = panes
    self.end = end
    self.ambient = ambient?.pane
    self.ambientEnd = max(1, ambient?.end ?? 1)
    let names = panes.first.map { Self.readoutNames(of: $0.model) } ?? []
    self.readouts = (readouts ?? names).filter { names.contains($0) }
    self.readoutIndices = self.readouts.compactMap { names.firstIndex(of: $0) }
    if isSynced { compareFrames(perform: { _ in }) }
  }

  /// A group of model panes (at tick 0, no offsets) that ends at `end`.
  init(id: String, panes models: [any Simulation], end: UInt64) {
    self.init(id: id, panes: models.map { ComparePane(model: $0) }, end: end)
  }

  /// The readouts a model of this kind has (none for a model without `ChartReadouts`).
  static func readoutNames(of model: any Simulation) -> [String] {
    (Swift.type(of: model) as? any ChartReadouts.Type)?.readoutNames ?? []
  }

  /// Whether every pane is at its own tick for the group's `tick`.
  var isSynced: Bool {
    panes.allSatisfy { $0.model.tick == $0.ownTick(atGroupTick: tick) }
  }

  /// Whether a tick would do anything without a command: catch up a seek or a pane, step, or
  /// play.
  var wantsTick: Bool {
    failure == nil && !viewers.isEmpty
      && (target != nil || waitingSteps > 0 || !isSynced
        || (playing && (tick < end || loop != nil)) || (ambient != nil && !ambientViewers.isEmpty))
  }

  /// One game-loop tick: applies `commands`, then steps as far as seek, asked-for steps or
  /// speed and `mayStepAgain` (asked before every group tick's steps of all panes, and before
  /// every step of a pane catching up to its offset: a `StepSlice`) allow, and sends the
  /// newest frames.
  mutating func tick(_ commands: [Command], mayStepAgain: () -> Bool, perform: (Action) -> Void) {
    guard failure == nil else { return }
    defer {
      if let failure { perform(.fail(failure, to: viewers)) }
    }
    var changed = false
    var rerunning = false
    var joined: [Viewer] = []
    for command in commands {
      switch command {
      case .join(let viewer):
        viewers.append(viewer)
        joined.append(viewer)
      case .leave(let viewer):
        viewers.removeAll { $0 === viewer }
        joined.removeAll { $0 === viewer }
        ambientViewers.removeAll { $0 === viewer }
      case .ambient(let viewer, let wanted):
        ambientViewers.removeAll { $0 === viewer }
        if wanted && ambient != nil && viewers.contains(where: { $0 === viewer }) {
          ambientViewers.append(viewer)
        }
        continue
      case .play:
        playing = true
        waitingSteps = 0
        if let loop, target == nil, tick >= loop.upperBound {
          seek(to: loop.lowerBound)
        } else if tick >= end && target == nil {
          seek(to: 0)
        }
      case .pause:
        playing = false
        waitingSteps = 0
        credit.forgetOwed()
      case .step(let count):
        playing = false
        waitingSteps = min(end - min(end, target ?? tick), waitingSteps + UInt64(max(0, count)))
      case .speed(let value):
        speed = min(Self.speeds.upperBound, max(Self.speeds.lowerBound, value))
        credit.forgetOwed()
      case .seek(let goal):
        waitingSteps = 0
        seek(to: min(goal, end))
      case .loop(let range):
        loop = range.map { min($0.lowerBound, end)...min($0.upperBound, end) }
      case .offset(let pane, let value):
        guard panes.indices.contains(pane), panes[pane].offset != value else { continue }
        panes[pane].offset = value
        rerun()
        rerunning = true
      }
      changed = true
    }
    if rerunning {
      // NB: the new offsets go out before the re-run's `diverged`, which belongs to them.
      perform(
        .send(status, to: viewers.filter { v in !joined.contains { $0 === v } }, latestOnly: false))
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
      if tick == goal && isSynced { target = nil }
    } else if waitingSteps > 0 {
      step(toward: tick + waitingSteps, mayStepAgain: mayStepAgain, perform: perform)
      waitingSteps -= tick - before
      if waitingSteps == 0 { changed = true }
    } else if playing {
      if let loop, tick >= loop.upperBound {
        // The frames of the loop's end went out last tick: on from its start.
        seek(to: loop.lowerBound)
        step(toward: loop.lowerBound, mayStepAgain: mayStepAgain, perform: perform)
        if tick == loop.lowerBound && isSynced { target = nil }
      } else {
        let due = credit.earn(at: speed, cap: 4 * UInt64(speed.rounded(.up)))
        let goal = min(loop?.upperBound ?? end, end, tick + due)
        step(toward: goal, mayStepAgain: mayStepAgain, perform: perform)
        credit.leave(goal - min(goal, tick))
      }
    } else if !isSynced {
      step(toward: tick, mayStepAgain: mayStepAgain, perform: perform)
    }
    if playing && loop == nil && tick >= end && target == nil {
      playing = false
      changed = true
    }
    framesOwed = framesOwed || tick != before || changed
    let ambientMoved = stepAmbient(perform: perform)
    // NB: no frames while a seek or a pane catches up: the viewer waits for the tick it asked
    // for, with every pane at it.
    let shown = target == nil && isSynced
    if shown && (framesOwed || ambientMoved) {
      // A viewer of the ambient pane gets it in the same message as the group's newest frames
      // (again, while the group stands still): only the newest of these waits for a busy
      // viewer, so one must never replace the other's frames.
      let owed = framesOwed ? viewers : joined
      framesOwed = false
      let plain = owed.filter { viewer in !ambientViewers.contains { $0 === viewer } }
      if !plain.isEmpty { perform(.send(frames(), to: plain, latestOnly: true)) }
      if !ambientViewers.isEmpty && (ambientMoved || !owed.isEmpty) {
        perform(.send(frames(withAmbient: true), to: ambientViewers, latestOnly: true))
      }
    } else if !joined.isEmpty && shown {
      perform(.send(frames(), to: joined, latestOnly: true))
    } else {
      if !joined.isEmpty { framesOwed = true }
      if ambientMoved { perform(.send(ambientMessage, to: ambientViewers, latestOnly: true)) }
    }
    if changed || (tick != before && !playing) {
      perform(.send(status, to: viewers, latestOnly: false))
    }
  }

  /// Steps the ambient pane once while a viewer wants it, from its start again after its end
  /// (the seed's end hook); true when it moved. A recording that can no longer be read ends
  /// only the ambient pane: its viewers are told why, and the group goes on.
  private mutating func stepAmbient(perform: (Action) -> Void) -> Bool {
    guard var pane = ambient, !ambientViewers.isEmpty else { return false }
    if pane.model.tick >= pane.start.tick + ambientEnd {
      pane.restart()
    } else {
      do {
        guard try pane.readAhead() else { return false }
      } catch {
        let session = pane.recording?.session ?? ""
        let reason =
          "the ambient pane's recording (session \(session)) can no longer be read: "
          + APIError.told(error)
        perform(
          .send(
            Self.errorMessage("ambient-unavailable", reason), to: ambientViewers, latestOnly: false)
        )
        ambient = nil
        ambientViewers = []
        return false
      }
      pane.step()
    }
    ambient = pane
    return true
  }

  /// Runs every pane again from its start up to the group's tick (or the seek's target), so
  /// that the parting is found again, from tick 0, for the new offsets: as a seek back, its
  /// steps are the group's, in slices.
  private mutating func rerun() {
    let goal = target ?? tick
    diverged = nil
    comparedUpTo = nil
    for index in panes.indices { panes[index].restart() }
    tick = 0
    credit.reset()
    target = goal
  }

  private mutating func seek(to goal: UInt64) {
    if goal < tick {
      for index in panes.indices { panes[index].restart() }
      tick = 0
      credit.reset()
    }
    credit.forgetOwed()
    target = goal == tick && isSynced ? nil : goal
  }

  /// Brings every pane to its own tick for the group's tick, then steps the group (every pane
  /// together) until `goal` or until `mayStepAgain` says no or a recording's log cannot be read
  /// now; compares the frames at each new tick until they first differ.
  private mutating func step(
    toward goal: UInt64, mayStepAgain: () -> Bool, perform: (Action) -> Void
  ) {
    while failure == nil {
      guard catchUp(mayStepAgain: mayStepAgain) else { return }
      compareFrames(perform: perform)
      guard tick < goal, mayStepAgain() else { return }
      tick += 1
    }
  }

  /// Steps every pane behind its own tick for `tick` up to it: one step each without asking
  /// (the group's step, already allowed), more (a pane catching up to its offset after a
  /// restart) each asking `mayStepAgain`. False when it stopped short.
  private mutating func catchUp(mayStepAgain: () -> Bool) -> Bool {
    for index in panes.indices {
      let goal = panes[index].ownTick(atGroupTick: tick)
      while panes[index].model.tick < goal {
        if panes[index].model.tick + 1 < goal { guard mayStepAgain() else { return false } }
        do {
          guard try panes[index].readAhead() else { return false }
        } catch {
          let session = panes[index].recording?.session ?? ""
          failure =
            "pane \(index + 1)'s recording (session \(session)) can no longer be read: "
            + APIError.told(error)
          playing = false
          return false
        }
        panes[index].step()
      }
    }
    return true
  }

  /// Compares the panes' frames at `tick` when that tick is new and no divergence is known.
  private mutating func compareFrames(perform: (Action) -> Void) {
    guard diverged == nil, comparedUpTo.map({ tick > $0 }) ?? true else { return }
    comparedUpTo = tick
    if !Self.framesAgree(panes.map(\.model)) {
      diverged = tick
      perform(.send(Self.divergedMessage(tick), to: viewers, latestOnly: false))
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

  /// The chosen readouts of `model`, in `readouts` order.
  func readoutValues(_ model: any Simulation) -> [Double] {
    guard let charted = model as? any ChartReadouts else { return [] }
    var values = BatchValues(capacity: 8)
    charted.writeReadouts(into: &values)
    return readoutIndices.map { values.values[$0] }
  }
}
