import JSON

extension TagCloud {
  mutating func step(_ inputs: [Input]) -> [SimulationEvent] {
    // Events are cleared at the top: each step reports only its own.
    var events: [SimulationEvent] = []

    // Inputs: drags turn the sphere at once and add up into this tick's pointer motion.
    for input in inputs { apply(input, events: &events) }

    // Spin: while dragging, follow the pointer's (smoothed) rate; after release, keep turning
    // and decay towards the idle spin.
    let idle = Vector2(x: settings.autoRotate * Self.tickDuration, y: 0)
    if state.dragging {
      state.spin = state.spin * 0.5 + state.drag * (0.5 / settings.radius)
    } else {
      state.spin = idle + (state.spin - idle) * settings.damping
      turn(by: state.spin)
    }
    state.drag = .zero

    // Drift: keep the matrix a rotation despite rounding.
    state.rotation = state.rotation.orthonormalized()
    tick += 1
    return events
  }

  mutating func apply(_ input: Input, events: inout [SimulationEvent]) {
    switch input {
    case .drag(let dx, let dy):
      if !state.dragging { state.spin = .zero }
      state.dragging = true
      let motion = Vector2(x: dx, y: dy)
      state.drag += motion
      turn(by: motion * (1 / settings.radius))
    case .release:
      state.dragging = false
    case .tags(let tags):
      state.tags = tags
      events.append(SimulationEvent(name: "tags", fields: tagFields))
    case .reset:
      state = State(config: settings)
      events.append(resetEvent)
    }
  }

  /// Turns the sphere by `angles` rad: x about the vertical axis, then y about the horizontal.
  private mutating func turn(by angles: Vector2) {
    state.rotation = Matrix3.yaw(angles.x) * Matrix3.pitch(angles.y) * state.rotation
  }

  /// The tags and their relative font sizes, as hello and the `tags` event carry them.
  var tagFields: [String: JSONValue] {
    [
      "tags": .array(state.tags.map(\.json)),
      "sizes": .array(sizes.map { .number(($0 * 1_000).rounded() / 1_000) }),
    ]
  }

  /// Relative font size per tag from its weight: 0.75 for the lightest to 1.5 for the heaviest
  /// (all 1 when weights are equal).
  var sizes: [Double] {
    let weights = state.tags.map(\.weight)
    let lightest = weights.min() ?? 1
    let heaviest = weights.max() ?? 1
    guard heaviest > lightest else { return weights.map { _ in 1 } }
    return weights.map { 0.75 + 0.75 * ($0 - lightest) / (heaviest - lightest) }
  }
}
