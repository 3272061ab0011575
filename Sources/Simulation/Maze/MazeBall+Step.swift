import JSON

extension MazeBall {
  /// Impacts slower than this (px/s) do not bounce: the ball settles against a wall instead
  /// of chattering (Box2D's restitution threshold).
  static let restingSpeed = 20.0
  /// Impacts at least this fast (px/s) are reported as `bump` events.
  static let bumpSpeed = 60.0

  mutating func step(_ inputs: [Input]) -> [SimulationEvent] {
    // Events are cleared at the top: each step reports only its own.
    var events: [SimulationEvent] = []

    // Inputs: apply the validated inputs in arrival order.
    for input in inputs { apply(input, events: &events) }

    // Substeps: at least two (the seed's 120 Hz), and enough that the ball moves at most half
    // its radius in each, so it cannot pass through a block or a corner.
    let radius = settings.radius
    let acceleration = Vector2(
      x: state.tilt.x * settings.gravity, y: -state.tilt.y * settings.gravity)
    let bound = min(
      settings.maxSpeed, state.velocity.length + acceleration.length * Self.tickDuration)
    let substeps = max(
      Self.substepMinimum, Int((bound * Self.tickDuration / (radius / 2)).rounded(.up)))
    let duration = Self.tickDuration / Double(substeps)
    var impact = 0.0
    for _ in 0..<substeps {
      // Accelerate, then cap the speed.
      state.velocity += acceleration * duration
      let speed = state.velocity.length
      if speed > settings.maxSpeed { state.velocity = state.velocity * (settings.maxSpeed / speed) }
      // Move.
      let previous = state.position
      state.position += state.velocity * duration
      // Collide with the box and the blocks.
      impact = max(impact, resolveContacts(from: previous))
    }

    // Events: one bump a tick at most, with the hardest impact.
    if impact >= Self.bumpSpeed {
      events.append(
        SimulationEvent(name: "bump", fields: ["speed": .number((impact * 100).rounded() / 100)]))
    }
    tick += 1
    return events
  }

  /// Pushes the ball out of the deepest contact, up to four times (two walls of a corner and
  /// some slack), reflecting the normal velocity with restitution; returns the hardest impact
  /// speed. If the ball still overlaps, it goes back to `previous` and stops.
  private mutating func resolveContacts(from previous: Vector2) -> Double {
    var impact = 0.0
    for _ in 0..<4 {
      guard let contact = deepestContact(at: state.position) else { break }
      state.position += contact.normal * contact.depth
      let approach = state.velocity.dot(contact.normal)
      if approach < 0 {
        let bounce = -approach > Self.restingSpeed ? settings.restitution : 0
        state.velocity -= contact.normal * ((1 + bounce) * approach)
        impact = max(impact, -approach)
      }
    }
    if overlap(at: state.position) > Self.tolerance {
      state.position = previous
      state.velocity = .zero
    }
    return impact
  }

  mutating func apply(_ input: Input, events: inout [SimulationEvent]) {
    switch input {
    case .tilt(let x, let y):
      state.tilt = Vector2(x: x, y: y)
    case .toggle(let row, let column):
      guard row < state.maze.rows, column < state.maze.columns else {
        events.append(
          .rejected(
            "toggle: row and col must be inside the \(state.maze.rows)x\(state.maze.columns) maze"))
        return
      }
      guard state.maze[row, column] || state.maze.emptyCount > 1 else {
        events.append(.rejected("toggle: the last empty cell cannot be filled"))
        return
      }
      state.maze.toggle(row: row, column: column)
      mazeChanged(events: &events)
    case .clear:
      state.maze.clear()
      mazeChanged(events: &events)
    case .load(let maze):
      guard maze.rows == settings.rows, maze.columns == settings.columns else {
        events.append(
          .rejected("load: cells must have \(settings.rows) rows of \(settings.columns) cells"))
        return
      }
      guard maze.emptyCount > 0 else {
        events.append(.rejected("load: cells must leave at least one cell empty"))
        return
      }
      state.maze = maze
      mazeChanged(events: &events)
    case .reset:
      let maze = state.maze
      let revision = state.revision
      state = State(config: settings)
      state.maze = maze
      state.revision = revision
      placeBallClear()
      events.append(resetEvent)
    }
  }

  /// Reports the new maze and moves the ball out of any block that appeared under it.
  private mutating func mazeChanged(events: inout [SimulationEvent]) {
    state.revision += 1
    events.append(
      SimulationEvent(
        name: "maze", fields: ["cells": state.maze.json, "revision": .number(state.revision)]))
    if placeBallClear() {
      events.append(SimulationEvent(name: "ball-moved", fields: ["ball": ballJSON]))
    }
  }

  private var ballJSON: JSONValue {
    [
      .number((state.position.x * 100).rounded() / 100),
      .number((state.position.y * 100).rounded() / 100),
    ]
  }
}
