import JSON

extension Paintbrush {
  mutating func step(_ inputs: [Input]) -> [SimulationEvent] {
    var refused: [Int: String] = [:]
    return step(inputs, refusing: false, refused: &refused)
  }

  /// A live step: an undo with nothing of its author's to undo and a clear of an empty canvas
  /// change nothing, so they are refused (`refused`, by index) rather than stepped and logged.
  public mutating func step(checked inputs: [CheckedInput], refused: inout [Int: String])
    -> [SimulationEvent]
  {
    let (typed, indexes, rejected) = Self.typed(inputs)
    var refusedTyped: [Int: String] = [:]
    let events = rejected + step(typed, refusing: true, refused: &refusedTyped)
    for (index, reason) in refusedTyped { refused[indexes[index]] = reason }
    return events
  }

  /// One tick; with `refusing`, inputs that change nothing are left out into `refused` (by
  /// index) instead of reported as `input-rejected` events.
  private mutating func step(_ inputs: [Input], refusing: Bool, refused: inout [Int: String])
    -> [SimulationEvent]
  {
    // Events are cleared at the top: each step reports only its own.
    var events: [SimulationEvent] = []
    let before = state.version

    // Inputs: paint, undo and clear in arrival order; each change is one op.
    var ops: [JSONValue] = []
    for (index, input) in inputs.enumerated() {
      if refusing, let reason = noOpReason(input) {
        refused[index] = reason
        continue
      }
      apply(input, ops: &ops, events: &events)
    }
    tick += 1

    // Changes: one `paint` event carries the tick's ops, so none is ever dropped alone.
    if !ops.isEmpty {
      events.append(
        SimulationEvent(
          name: "paint",
          fields: ["from": .number(before), "version": .number(state.version), "ops": .array(ops)]))
    }
    return events
  }

  mutating func apply(_ input: Input, events: inout [SimulationEvent]) {
    var ops: [JSONValue] = []
    apply(input, ops: &ops, events: &events)
  }

  /// Applies one input, adding the op that clients replay (or an `input-rejected` event).
  mutating func apply(_ input: Input, ops: inout [JSONValue], events: inout [SimulationEvent]) {
    switch input {
    case .stroke(let author, let number, let color, let radius, let points):
      guard
        let mark = paint(
          author: author, number: number, color: color, radius: radius, points: points)
      else {
        events.append(.rejected(fullReason(author)))
        return
      }
      ops.append(mark.op)
    case .undo(let author):
      guard let index = state.strokes.lastIndex(where: { $0.author == author }) else {
        events.append(.rejected("nothing of yours to undo (author \(author))"))
        return
      }
      let id = state.strokes.remove(at: index).id
      let removed = state.marks.filter { $0.stroke == id }.reduce(0) { $0 + $1.points.count / 2 }
      state.marks.removeAll { $0.stroke == id }
      state.pointCount -= removed
      state.version += 1
      ops.append(["op": "undo", "stroke": .number(id)])
    case .clear, .reset:
      state.strokes.removeAll()
      state.marks.removeAll()
      state.pointCount = 0
      state.version += 1
      ops.append(["op": "clear"])
    }
  }

  /// Why `input` would change nothing now, or nil.
  func noOpReason(_ input: Input) -> String? {
    switch input {
    case .undo(let author) where !state.strokes.contains(where: { $0.author == author }):
      "nothing of yours to undo"
    case .clear where state.strokes.isEmpty: "the canvas is already empty"
    default: nil
    }
  }

  /// Adds a batch to the author's open stroke (same number as their latest) or starts a new
  /// one; nil when the canvas is full.
  private mutating func paint(
    author: String, number: Int, color: String, radius: Double, points raw: [Double]
  ) -> Mark? {
    var points: [Double] = []
    points.reserveCapacity(raw.count + 2)
    let open = state.strokes.last { $0.author == author }.flatMap { $0.number == number ? $0 : nil }
    // A continuing batch joins the stroke's previous last point, so the line has no gap.
    if let open, let last = state.marks.last(where: { $0.stroke == open.id }) {
      points += last.points.suffix(2)
    }
    for (index, value) in raw.enumerated() {
      let side = Double(index % 2 == 0 ? settings.width : settings.height)
      points.append(min(value, side))
    }
    guard state.pointCount + points.count / 2 <= settings.maxPoints else { return nil }
    let id: Int
    if let open {
      id = open.id
    } else {
      guard state.strokes.count < settings.maxStrokes else { return nil }
      id = state.nextStroke
      state.nextStroke += 1
      state.strokes.append(Stroke(id: id, author: author, number: number))
    }
    let mark = Mark(stroke: id, color: color, radius: radius, points: points)
    state.marks.append(mark)
    state.pointCount += points.count / 2
    state.version += 1
    return mark
  }

  private func fullReason(_ author: String) -> String {
    "the canvas is full (at most \(settings.maxStrokes) strokes and \(settings.maxPoints) "
      + "points): CLEAR or UNDO to paint more"
  }
}
