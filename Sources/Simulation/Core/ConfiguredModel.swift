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

  /// The input as `sender` sent it: a model whose rules depend on who sent an input puts the
  /// sender into it here, over anything the message claimed (the default keeps it as it is).
  func sent(by sender: Sender) -> Self
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

  func sent(by sender: Sender) -> Self { self }
}

/// What every model of this package shares: a typed config and input, and the JSON plumbing
/// around them. A model implements `step(_:)` over its own `Input`; checking messages and
/// stepping checked inputs come from here.
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

  public static func checkedInput(from message: JSONValue, sentBy sender: Sender?)
    throws(SimulationError) -> CheckedInput?
  {
    guard var input = try Input(message: message) else { return nil }
    if let sender { input = input.sent(by: sender) }
    return CheckedInput(json: input.json, value: input)
  }

  public mutating func step(checked inputs: [CheckedInput]) -> [SimulationEvent] {
    let (typed, _, rejected) = Self.typed(inputs)
    let events = step(typed)
    return rejected.isEmpty ? events : rejected + events
  }

  /// The model's own inputs among `inputs`, with their indexes there, and an `input-rejected`
  /// event for each of the rest.
  static func typed(_ inputs: [CheckedInput]) -> (
    inputs: [Input], indexes: [Int], rejected: [SimulationEvent]
  ) {
    var typed: [Input] = []
    typed.reserveCapacity(inputs.count)
    var indexes: [Int] = []
    var rejected: [SimulationEvent] = []
    for (index, input) in inputs.enumerated() {
      if let value = input.value as? Input {
        typed.append(value)
        indexes.append(index)
      } else if let refusal = input.value as? CheckedInput.Rejected {
        rejected.append(.rejected(refusal.reason))
      } else {
        // NB: only `checkedInput(from:sentBy:)` of this model makes these; another model's
        // input is refused rather than guessed at.
        rejected.append(.rejected("not an input of \(Self.kind)"))
      }
    }
    return (typed, indexes, rejected)
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
