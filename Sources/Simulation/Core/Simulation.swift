import JSON

/// What the game loop and the session layer need from any model, without knowing its type.
///
/// A model is a value: copying it copies the whole simulation. Stepping is pure and
/// deterministic: the same config, seed and inputs at the same ticks give the same states,
/// bit for bit, so a session can be replayed from its input log or resumed from a snapshot.
///
/// Inputs are typed from the socket to the step: `checkedInput(from:sentBy:)` checks a message
/// once and keeps the model's own input value in a `CheckedInput`; `step(checked:)` applies it
/// without parsing it again. A `ConfiguredModel` gets both from its `Input` type.
public protocol Simulation: Sendable {
  /// The kind used in URLs and the API, e.g. `"bouncing-balls"`.
  static var kind: String { get }
  /// A human title, e.g. `"Bouncing balls"`.
  static var title: String { get }
  /// One line for the gallery.
  static var summary: String { get }
  /// The places for people without the control token who may still send some inputs (a
  /// drawing guest, the other side of a game); empty for most models.
  static var seats: [Seat] { get }
  /// Message types that ask about the state without changing it (street soccer's `plan`): the
  /// session answers each with `answer(_:sentBy:)` at once when nothing waits before it (else
  /// on its next tick), to the asker only, and never logs it. Empty for most models.
  static var queries: Set<String> { get }

  /// Validates a config object (missing fields take defaults; unknown fields are an error); the
  /// error names the field and its allowed range, e.g. `balls: must be an integer from 1 to 10000`.
  init(config: JSONValue, seed: UInt64) throws(SimulationError)

  /// The normalized config: every field, defaults filled in.
  var config: JSONValue { get }

  /// Steps since creation; never goes back, not even on reset.
  var tick: UInt64 { get }

  /// Checks one message (an object with "type") and returns the typed input with its
  /// normalized JSON, or nil if the type is not an input of this model; throws naming the bad
  /// field. `sender` is who sent it as the server knows it (it is stamped on the input for
  /// models whose rules depend on it); nil for a message read back from the log, which already
  /// carries its stamp.
  static func checkedInput(from message: JSONValue, sentBy sender: Sender?) throws(SimulationError)
    -> CheckedInput?

  /// Advances one tick of 1/60 s, applying inputs from `checkedInput(from:sentBy:)` in order
  /// first; returns the events.
  mutating func step(checked inputs: [CheckedInput]) -> [SimulationEvent]

  /// Advances one tick like `step(checked:)`, but an input that would change nothing (an undo
  /// with nothing of the sender's to undo, a clear of an empty canvas) is left out, with no
  /// event, and its index goes into `refused` with the reason: a live session refuses it with
  /// an error to its sender and does not log it. Leaving it out must give the same state.
  mutating func step(checked inputs: [CheckedInput], refused: inout [Int: String])
    -> [SimulationEvent]

  /// The answer to a query (a message whose type is in `queries`): the bytes of one JSON value;
  /// throws naming the field or rule that stops it. `sender` is who asked, as the server knows
  /// it (nil for the server itself).
  func answer(_ query: JSONValue, sentBy sender: Sender?) throws(SimulationError) -> [UInt8]

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

  /// The score and level of the game that has ended, while the model shows it as over; nil
  /// for models without games (a restored session reads it here, since its `game-over` event
  /// is long gone).
  var finishedGame: (score: Int, level: Int)? { get }

  /// Whether a finished game played with `config` may enter the high scores.
  static func entersHighScores(config: JSONValue) -> Bool

  /// Whether the next step will cost far more than a tick's share (street soccer's computer
  /// searching its turn): the game loop then runs it off the realtime tick, as a job charged to
  /// the session's owner. It changes where the step runs, never what it does.
  var nextStepIsHeavy: Bool { get }

  /// Whether a step that applies inputs may be heavy although `nextStepIsHeavy` says no (a
  /// person's street-soccer turn that hands the move to a computer playing at once): the game
  /// loop then runs steps with inputs off the realtime tick, as jobs of the session's owner.
  var inputsMayMakeNextStepHeavy: Bool { get }

  /// Whether the last step changed what `writeFrame` writes (the frame's `tick` aside): when
  /// it did not, a running session sends no frame for that step (street soccer between
  /// moves, a maze ball at rest). Never consulted for what the model does, only for what is
  /// sent; true after a restore. Models that do not know say true: every step shows.
  var lastStepChangedFrame: Bool { get }

  /// About how many bytes `writeHello` writes, worked out without writing it (a count times a
  /// size per item), at least the real size for states of any bulk: what tells the server,
  /// before it encodes a joiner's hello, whether that hello is big and charged to the joiner.
  /// Models whose hello can pass a few KiB give one.
  var helloBytesEstimate: Int { get }

  /// Appends the model's batch values (`BatchStepping.writeBatchValues`) and says true; says
  /// false, with nothing appended, for a model that takes no batch steps. A requirement, so a
  /// session holding `any Simulation` asks without casting it to `any BatchStepping` (a copy
  /// of the model and a conformance lookup) after every batch step.
  func appendBatchValues(into values: inout BatchValues) -> Bool
}

extension Simulation {
  /// The simulation's fixed time step in seconds: one tick.
  public static var tickDuration: Double { 1.0 / 60.0 }

  /// No seats: only the controller sends input.
  public static var seats: [Seat] { [] }

  /// No queries.
  public static var queries: Set<String> { [] }

  /// No queries: every one is unknown.
  public func answer(_ query: JSONValue, sentBy sender: Sender?) throws(SimulationError) -> [UInt8]
  {
    throw SimulationError(field: "type", message: "\(Self.kind) answers no queries")
  }

  /// No games.
  public var finishedGame: (score: Int, level: Int)? { nil }

  /// Every step is light.
  public var nextStepIsHeavy: Bool { false }

  /// No batch values: the model takes no batch steps.
  public func appendBatchValues(into values: inout BatchValues) -> Bool { false }

  /// Every step may change the frame.
  public var lastStepChangedFrame: Bool { true }

  /// Inputs never make a step heavy.
  public var inputsMayMakeNextStepHeavy: Bool { false }

  /// A hello of a few KiB at most: never big.
  public var helloBytesEstimate: Int { 0 }

  /// Refuses nothing: every input is stepped (and logged).
  public mutating func step(checked inputs: [CheckedInput], refused: inout [Int: String])
    -> [SimulationEvent]
  {
    step(checked: inputs)
  }

  /// No high scores.
  public static func entersHighScores(config: JSONValue) -> Bool { false }

  /// Checks a message read back from the log (or written by the server itself).
  public static func checkedInput(from message: JSONValue) throws(SimulationError)
    -> CheckedInput?
  {
    try checkedInput(from: message, sentBy: nil)
  }

  /// The seat named `name`, if the model has one.
  public static func seat(named name: String) -> Seat? {
    seats.first { $0.name == name }
  }
}
