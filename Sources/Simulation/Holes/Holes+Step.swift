import JSON

extension Holes {
  mutating func step(_ inputs: [Input]) -> [SimulationEvent] {
    // Events are cleared at the top: each step reports only its own.
    var events: [SimulationEvent] = []

    // Inputs: apply the validated inputs in arrival order.
    for input in inputs { apply(input, events: &events) }
    tick += 1
    guard state.phase != .over else { return events }

    // Holes: the pattern turns, one way on odd levels and the other on even ones.
    state.angle += state.level % 2 == 1 ? state.rotationSpeed : -state.rotationSpeed

    // Pause: count down, then a new ball at the start.
    if state.phase != .playing {
      state.pause -= 1
      if state.pause <= 0 {
        state.pause = 0
        state.phase = .playing
        state.position = Self.start(settings)
        state.velocity = .zero
        events.append(
          SimulationEvent(name: "ball", fields: ["ballsLeft": .number(state.ballsLeft)]))
      }
      return events
    }

    // Move: the seed's order, position first with the old velocity.
    state.position += state.velocity * Self.tickDuration
    bounceOffEdges()

    // Holes: sum every pull; a ball near enough to a centre is lost.
    var pull = Vector2.zero
    var kept = 1.0
    let radius = holeRadius
    for centre in holeCentres {
      let offset = centre - state.position
      let distance = offset.length
      let reach = distance / radius
      if reach <= settings.captureFraction {
        loseBall(at: centre, events: &events)
        return events
      }
      if reach < 1 {
        pull += offset * (settings.pullStrength / (reach * reach) / distance)
        kept *= settings.holeDamping
      }
    }

    // Flag: the top-left corner scores.
    let reach = settings.flagReach * settings.ballRadius
    if state.position.x < reach && state.position.y < reach {
      score(events: &events)
      return events
    }

    // Accelerate: tilt (y up) plus the pulls, in g.
    let acceleration = Vector2(x: state.tilt.x, y: -state.tilt.y) + pull
    state.velocity = state.velocity * kept + acceleration * (settings.gravity * Self.tickDuration)
    return events
  }

  mutating func apply(_ input: Input, events: inout [SimulationEvent]) {
    switch input {
    case .tilt(let x, let y):
      state.tilt = Vector2(x: x, y: y)
    case .restart, .reset:
      state = State(config: settings)
      events.append(resetEvent)
    }
  }

  /// The seed's edges: clamp the ball inside and reflect the velocity times restitution.
  private mutating func bounceOffEdges() {
    let radius = settings.ballRadius
    Self.bounce(
      &state.position.x, &state.velocity.x, within: radius...(settings.width - radius),
      restitution: settings.restitution)
    Self.bounce(
      &state.position.y, &state.velocity.y, within: radius...(settings.height - radius),
      restitution: settings.restitution)
  }

  /// One axis of `bounceOffEdges`.
  private static func bounce(
    _ position: inout Double, _ velocity: inout Double, within range: ClosedRange<Double>,
    restitution: Double
  ) {
    if position > range.upperBound {
      position = range.upperBound
      velocity = -abs(velocity) * restitution
    }
    if position < range.lowerBound {
      position = range.lowerBound
      velocity = abs(velocity) * restitution
    }
  }

  private mutating func loseBall(at centre: Vector2, events: inout [SimulationEvent]) {
    state.ballsLeft -= 1
    state.position = centre
    state.velocity = .zero
    events.append(SimulationEvent(name: "lost", fields: ["ballsLeft": .number(state.ballsLeft)]))
    guard state.ballsLeft > 0 else {
      state.phase = .over
      events.append(.gameOver(score: state.score, level: state.level))
      return
    }
    state.phase = .lost
    state.pause = settings.pauseTicks
  }

  private mutating func score(events: inout [SimulationEvent]) {
    state.score += 1
    state.rotationSpeed += settings.rotationStep
    state.velocity = .zero
    state.phase = .scored
    state.pause = settings.pauseTicks
    events.append(SimulationEvent(name: "score", fields: ["score": .number(state.score)]))
    let level = 1 + state.score / settings.pointsPerLevel
    if level > state.level {
      state.level = level
      events.append(SimulationEvent(name: "level", fields: ["level": .number(level)]))
    }
  }
}
