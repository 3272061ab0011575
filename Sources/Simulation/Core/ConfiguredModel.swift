import JSON

/// A client input of one model, checked without looking at the state.
protocol ModelInput: Sendable {
  /// `{"type": "reset"}`, which every model accepts.
  static var reset: Self { get }

  /// Reads the fields of a message of `type` (other than `reset`); nil if the type is not
  /// one of the model's inputs.
  init?(type: String, fields: inout FieldReader) throws(SimulationError)

  /// The normalized message, as logged and replayed.
  var json: JSONValue { get }
}

extension ModelInput {
  /// Parses a message; nil if its type is not one of the model's inputs. Unknown fields are
  /// an error.
  init?(message: JSONValue) throws(SimulationError) {
    var (type, fields) = try FieldReader.message(message)
    if type == "reset" {
      self = .reset
    } else {
      guard let input = try Self(type: type, fields: &fields) else { return nil }
      self = input
    }
    try fields.finish()
  }
}

/// What the four models share: a typed config and input, and the JSON plumbing around them.
protocol ConfiguredModel: SnapshotModel {
  associatedtype Config: SimulationConfig
  associatedtype Input: ModelInput

  /// The checked config.
  var settings: Config { get }

  /// The model at its start for a checked config.
  init(settings: Config, seed: UInt64)

  /// Applies one input to the state, adding events.
  mutating func apply(_ input: Input, events: inout [SimulationEvent])

  /// Advances one tick of 1/60 s, applying typed inputs in order first; returns the events.
  mutating func step(_ inputs: [Input]) -> [SimulationEvent]

  /// Checks a decoded state's invariants (sizes agree, numbers finite and in range...).
  func validateRestoredState() throws(SimulationError)
}

extension ConfiguredModel {
  public init(config: JSONValue, seed: UInt64) throws(SimulationError) {
    self.init(settings: try Config(json: config), seed: seed)
  }

  public var config: JSONValue { settings.json }

  public static func input(from message: JSONValue) throws(SimulationError) -> JSONValue? {
    try Input(message: message)?.json
  }

  public static func checkedInput(from message: JSONValue) throws(SimulationError)
    -> CheckedInput?
  {
    try Input(message: message).map { CheckedInput(json: $0.json, value: $0) }
  }

  /// Parses logged inputs, then steps; one that no longer parses (a damaged log) becomes an
  /// `input-rejected` event.
  public mutating func step(inputs: [JSONValue]) -> [SimulationEvent] {
    var rejected: [SimulationEvent] = []
    var typed: [Input] = []
    for message in inputs {
      do {
        if let input = try Input(message: message) { typed.append(input) }
      } catch {
        rejected.append(.rejected("\(error)"))
      }
    }
    let events = step(typed)
    return rejected.isEmpty ? events : rejected + events
  }

  /// A model written before typed inputs implements `step(inputs:)` only; its typed inputs
  /// go back through JSON. NB: a model must implement `step(_:)` or `step(inputs:)` (each
  /// default calls the other).
  mutating func step(_ inputs: [Input]) -> [SimulationEvent] {
    step(inputs: inputs.map(\.json))
  }

  /// Applies logged inputs in arrival order; one that no longer parses becomes an
  /// `input-rejected` event (for models that step from JSON).
  mutating func apply(_ inputs: [JSONValue], events: inout [SimulationEvent]) {
    for message in inputs {
      do {
        guard let input = try Input(message: message) else { continue }
        apply(input, events: &events)
      } catch {
        events.append(.rejected("\(error)"))
      }
    }
  }

  public mutating func step(checked inputs: [CheckedInput]) -> [SimulationEvent] {
    var typed: [Input] = []
    typed.reserveCapacity(inputs.count)
    for input in inputs {
      guard let value = input.value as? Input else { return step(inputs: inputs.map(\.json)) }
      typed.append(value)
    }
    return step(typed)
  }

  /// The config must read back as itself, then the state must hold.
  func validateRestored() throws(SimulationError) {
    // NB: a restored config is untrusted until it has gone through the JSON reader.
    guard try Config(json: settings.json) == settings else {
      throw SimulationError(field: "snapshot", message: "holds an invalid config")
    }
    try validateRestoredState()
  }
}

extension SimulationEvent {
  /// `input-rejected`: a valid input that does not fit the current state, and why.
  static func rejected(_ reason: String) -> SimulationEvent {
    SimulationEvent(name: "input-rejected", fields: ["reason": .string(reason)])
  }
}
