import JSON

/// What the game loop and the session layer need from any model, without knowing its type.
///
/// A model is a value: copying it copies the whole simulation. Stepping is pure and
/// deterministic: the same config, seed and inputs at the same ticks give the same states,
/// bit for bit, so a session can be replayed from its input log or resumed from a snapshot.
public protocol Simulation: Sendable {
  /// The kind used in URLs and the API, e.g. `"bouncing-balls"`.
  static var kind: String { get }
  /// A human title, e.g. `"Bouncing balls"`.
  static var title: String { get }
  /// One line for the gallery.
  static var summary: String { get }

  /// Validates a config object (missing fields take defaults; unknown fields are an error); the
  /// error names the field and its allowed range, e.g. `balls: must be an integer from 1 to 10000`.
  init(config: JSONValue, seed: UInt64) throws(SimulationError)

  /// The normalized config: every field, defaults filled in.
  var config: JSONValue { get }

  /// Steps since creation; never goes back, not even on reset.
  var tick: UInt64 { get }

  /// Checks one client message (an object with "type") and returns the normalized input to log
  /// and to apply, or nil if the type is not an input of this model. Throws naming the bad field.
  static func input(from message: JSONValue) throws(SimulationError) -> JSONValue?

  /// Advances one tick of 1/60 s, applying validated inputs in order first; returns the events.
  mutating func step(inputs: [JSONValue]) -> [SimulationEvent]

  /// `input(from:)`, kept typed (a default is provided).
  static func checkedInput(from message: JSONValue) throws(SimulationError) -> CheckedInput?

  /// `step(inputs:)` for inputs from `checkedInput(from:)`, without parsing them again (a
  /// default is provided).
  mutating func step(checked inputs: [CheckedInput]) -> [SimulationEvent]

  /// Writes the model's fields of the `hello` message into an object the caller has begun.
  func writeHello(into writer: inout JSONWriter)

  /// Writes the model's fields of one `frame` message into an object the caller has begun.
  func writeFrame(into writer: inout JSONWriter)

  /// The exact state (bit-exact doubles), config and seed included.
  func snapshot() -> [UInt8]

  /// Restores a model from `snapshot()` bytes; throws if they are not a valid snapshot of this kind.
  init(snapshot: [UInt8]) throws(SimulationError)

  /// A hash of the whole state's bit patterns (FNV-1a over the snapshot bytes).
  var stateHash: UInt64 { get }
}

extension Simulation {
  /// The simulation's fixed time step in seconds: one tick.
  public static var tickDuration: Double { 1.0 / 60.0 }

  /// Checks one client message like `input(from:)`, keeping the result typed for `step`.
  /// Models with a typed input (`ConfiguredModel`) keep their own type; others keep the JSON.
  public static func checkedInput(from message: JSONValue) throws(SimulationError)
    -> CheckedInput?
  {
    try input(from: message).map { CheckedInput(json: $0, value: $0) }
  }

  /// Advances one tick with inputs checked by `checkedInput(from:)`.
  public mutating func step(checked inputs: [CheckedInput]) -> [SimulationEvent] {
    step(inputs: inputs.map(\.json))
  }
}
