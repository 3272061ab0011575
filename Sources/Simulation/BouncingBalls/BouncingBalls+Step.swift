import JSON

extension BouncingBalls {
  /// Most `collision` events one tick reports (the frame carries the full count).
  static let collisionEventLimit = 8
  /// Sessions with more balls report collisions only as the frame's count.
  static let collisionEventBallLimit = 20
  /// Most a ball moves in one substep, as a fraction of the smallest radius.
  static let travelPerSubstep = 0.75

  mutating func step(_ inputs: [Input]) -> [SimulationEvent] {
    // Events are cleared at the top: each step reports only its own.
    var events: [SimulationEvent] = []

    // Inputs: apply the validated inputs in arrival order, from the step's last `reset` on. A
    // reset puts the state back to its start whatever came before it, so the inputs before it
    // change nothing the step keeps; each skipped reset would rebuild every ball and encode
    // the whole hello for its event (500 resets of a 10,000-ball session in one step took
    // 1.7 s of CPU; issue 35). The one reset event sent carries the hello clients need.
    let last = inputs.lastIndex(where: \.isReset) ?? inputs.startIndex
    for input in inputs[last...] { apply(input, events: &events) }

    // Substeps: no ball may move more than 3/4 of the smallest radius in one substep, so two
    // balls close by less than the sum of their radii and cannot pass through each other.
    let smallest = state.balls.reduce(Double.infinity) { min($0, $1.radius) }
    let largest = state.balls.reduce(0) { max($0, $1.radius) }
    let travel = smallest * Self.travelPerSubstep
    var remaining = Self.tickDuration
    var fastest = state.balls.reduce(0) { max($0, ($1.vx * $1.vx + $1.vy * $1.vy).squareRoot()) }
    state.collisions = 0
    substeps = 0
    while remaining > 0 {
      substeps += 1
      let duration = fastest * remaining <= travel ? remaining : travel / fastest
      remaining = duration < remaining ? remaining - duration : 0
      moveAndBounceOffWalls(duration)
      grid.rebuild(
        state.balls, width: settings.width, height: settings.height, minimumCell: 2 * largest)
      resolveContacts(events: &events)
      fastest = capSpeedsAndKeepInside()
    }
    tick += 1
    return events
  }

  mutating func apply(_ input: Input, events: inout [SimulationEvent]) {
    switch input {
    case .addBall(let x, let y, let vx, let vy, let radius, let mass):
      guard state.balls.count < settings.maxBalls else {
        events.append(
          .rejected("add-ball: the session holds its maximum of \(settings.maxBalls) balls"))
        return
      }
      let range = settings.radiusMin...settings.radiusMax
      let size =
        radius.map { min(max($0, range.lowerBound), range.upperBound) }
        ?? state.random.next(in: range)
      let velocity = capped(Vector2(x: vx, y: vy))
      let ball = Ball(
        x: min(max(x, size), settings.width - size), y: min(max(y, size), settings.height - size),
        vx: velocity.x, vy: velocity.y, radius: size, mass: mass ?? settings.mass(radius: size),
        color: state.balls.count % Self.palette.count)
      state.balls.append(ball)
      events.append(
        SimulationEvent(
          name: "ball-added",
          fields: [
            "index": .number(state.balls.count - 1), "radius": .number(ball.radius),
            "mass": .number(ball.mass), "color": .number(ball.color),
          ]))
    case .throwBall(let index, let vx, let vy):
      guard state.balls.indices.contains(index) else {
        events.append(.rejected("throw: index: there is no ball \(index)"))
        return
      }
      let velocity = capped(Vector2(x: vx, y: vy))
      state.balls[index].vx = velocity.x
      state.balls[index].vy = velocity.y
    case .reset:
      state = State(config: settings, seed: seed)
      events.append(resetEvent)
    }
  }

  /// `velocity` scaled down to `maxSpeed` if it is faster.
  private func capped(_ velocity: Vector2) -> Vector2 {
    let speed = velocity.length
    return speed > settings.maxSpeed ? velocity * (settings.maxSpeed / speed) : velocity
  }

  /// Moves every ball in a straight line; in a box, reflects those that crossed a wall.
  private mutating func moveAndBounceOffWalls(_ duration: Double) {
    let width = settings.width
    let height = settings.height
    let restitution = settings.restitution
    let periodic = settings.isPeriodic
    for index in state.balls.indices {
      var ball = state.balls[index]
      ball.x += ball.vx * duration
      ball.y += ball.vy * duration
      if periodic {
        ball.x = Self.wrap(ball.x, period: width)
        ball.y = Self.wrap(ball.y, period: height)
      } else {
        let r = ball.radius
        Self.mirror(&ball.x, &ball.vx, within: r...(width - r), restitution: restitution)
        Self.mirror(&ball.y, &ball.vy, within: r...(height - r), restitution: restitution)
      }
      state.balls[index] = ball
    }
  }

  /// Mirrors the overshoot past a wall (scaled by restitution) as if the ball had bounced
  /// mid-substep, and reflects an approaching velocity.
  private static func mirror(
    _ position: inout Double, _ velocity: inout Double, within range: ClosedRange<Double>,
    restitution: Double
  ) {
    if position < range.lowerBound {
      position = range.lowerBound + (range.lowerBound - position) * restitution
      if velocity < 0 { velocity = -velocity * restitution }
    } else if position > range.upperBound {
      position = range.upperBound - (position - range.upperBound) * restitution
      if velocity > 0 { velocity = -velocity * restitution }
    }
  }

  /// Finds touching pairs through the grid and resolves each once: an impulse along the line
  /// of centres if they approach, then a push apart that removes the overlap.
  private mutating func resolveContacts(events: inout [SimulationEvent]) {
    let contact = Contact(
      restitution: settings.restitution, periodic: settings.isPeriodic, width: settings.width,
      height: settings.height)
    let grid = grid
    let reportLimit =
      state.balls.count <= Self.collisionEventBallLimit ? Self.collisionEventLimit : 0
    // NB: the slots' positions are a scratch copy, updated as pairs are pushed apart.
    var slotX = grid.x
    var slotY = grid.y
    let (collisions, reported) = grid.cellStart.withUnsafeBufferPointer { cellStart in
      grid.radius.withUnsafeBufferPointer { radius in
        slotX.withUnsafeMutableBufferPointer { slotX in
          slotY.withUnsafeMutableBufferPointer { slotY in
            state.balls.withUnsafeMutableBufferPointer { balls in
              var pass = ContactPass(
                contact: contact, grid: grid, cellStart: cellStart, radius: radius, slotX: slotX,
                slotY: slotY, balls: balls, reportLimit: reportLimit)
              pass.run()
              return (pass.collisions, pass.reported)
            }
          }
        }
      }
    }
    state.collisions += collisions
    for impact in reported {
      events.append(
        SimulationEvent(
          name: "collision",
          fields: [
            "a": .number(impact.first), "b": .number(impact.second),
            "speed": .number((impact.speed * 100).rounded() / 100),
          ]))
    }
  }

  /// Caps speeds, puts pushed balls back inside the box (or wraps them), and returns the
  /// fastest speed left.
  private mutating func capSpeedsAndKeepInside() -> Double {
    let maxSpeedSquared = settings.maxSpeed * settings.maxSpeed
    let periodic = settings.isPeriodic
    let width = settings.width
    let height = settings.height
    var fastestSquared = 0.0
    for index in state.balls.indices {
      var ball = state.balls[index]
      let speedSquared = ball.vx * ball.vx + ball.vy * ball.vy
      if speedSquared > maxSpeedSquared {
        let scale = settings.maxSpeed / speedSquared.squareRoot()
        ball.vx *= scale
        ball.vy *= scale
      }
      fastestSquared = max(fastestSquared, ball.vx * ball.vx + ball.vy * ball.vy)
      if periodic {
        ball.x = Self.wrap(ball.x, period: width)
        ball.y = Self.wrap(ball.y, period: height)
      } else {
        ball.x = min(max(ball.x, ball.radius), width - ball.radius)
        ball.y = min(max(ball.y, ball.radius), height - ball.radius)
      }
      state.balls[index] = ball
    }
    return fastestSquared.squareRoot()
  }

  /// `value` brought into [0, period).
  static func wrap(_ value: Double, period: Double) -> Double {
    var wrapped = value
    if wrapped < 0 { wrapped += period }
    if wrapped >= period { wrapped -= period }
    // NB: -1e-17 + period rounds to period itself; that point is 0 on the torus.
    return wrapped < period && wrapped >= 0 ? wrapped : 0
  }

  /// The shortest signed offset equivalent to `delta` on a circle of length `period`.
  static func nearestImage(_ delta: Double, period: Double) -> Double {
    if delta > period / 2 { return delta - period }
    if delta < -period / 2 { return delta + period }
    return delta
  }
}
