import HTTP
import JSON
import Simulation

/// A checked `POST /api/compare` body: `{"kind", "seed", "config", "variants": [pane, ...],
/// "ticks", "readouts", "ambient"}`, where a pane is config overrides or `{"recording": ID}`,
/// either with an `offset`, and `ambient` one more pane of either sort, without an offset, that
/// loops on its own outside the lockstep. Every model pane is built here and every recording read by `panes(reading:)`, so a
/// bad request is refused before anything starts, its error naming the pane and its field.
struct CompareRequest {
  static let paneCounts = 2...4
  /// The default and the allowed lengths of a group, in ticks (one minute; up to ten).
  static let defaultTicks = 3_600
  static let tickRange = 1...36_000
  /// The longest session id a recording may name.
  static let maxSessionID = 64

  /// A pane as asked for: a model (built), or a stored session still to read.
  enum Variant {
    case model(any Simulation)
    case recording(String)
  }

  let kind: String
  let type: any Simulation.Type
  let seed: UInt64
  let base: JSONValue
  /// Each pane's object as given.
  let overrides: [JSONValue]
  let variants: [Variant]
  /// Each pane's `offset` as given (nil when left out), checked once the length is known.
  private let offsets: [JSONValue?]
  /// The `ticks` asked for; nil for the default.
  let ticks: Int?
  /// The readouts asked for; nil for all the kind's.
  let readouts: [String]?
  /// The ambient pane as asked for (its object, and it), or nil.
  let ambient: (given: JSONValue, variant: Variant)?

  /// The sessions the recording panes name, in pane order.
  var recordings: [String] {
    (variants + [ambient?.variant].compactMap { $0 }).compactMap {
      if case .recording(let id) = $0 { return id }
      return nil
    }
  }

  /// Checks `body`; `randomSeed` picks the seed when the body names none.
  init(_ body: JSONBody, randomSeed: () -> UInt64) throws(APIError) {
    try body.allowOnly(["kind", "seed", "config", "variants", "ticks", "readouts", "ambient"])
    kind = try body.string("kind")
    guard let type = Demo.model(ofKind: kind) else {
      let kinds = Demo.sessionKinds.joined(separator: ", ")
      throw APIError(.badRequest, "kind must be one of: \(kinds)", field: "kind")
    }
    self.type = type
    seed = try SessionAPI.seed(in: body) ?? randomSeed()
    guard case .object(let baseFields) = body.fields["config"] ?? .object([:]) else {
      throw APIError(.badRequest, "config must be an object", field: "config")
    }
    base = .object(baseFields)
    guard case .array(let given) = try body.value("variants") else {
      throw APIError(
        .badRequest, "variants must be an array of 2 to 4 panes", field: "variants")
    }
    guard Self.paneCounts.contains(given.count) else {
      throw APIError(
        .badRequest, "variants must hold 2 to 4 panes (\(given.count) given)", field: "variants")
    }
    do {
      _ = try type.init(config: base, seed: seed)
    } catch {
      throw APIError(
        .badRequest, error.description, field: error.field.map { "config.\($0)" } ?? "config")
    }
    var variants: [Variant] = []
    var offsets: [JSONValue?] = []
    for (index, variant) in given.enumerated() {
      let (built, offset) = try Self.variant(
        variant, name: Self.pane(index), path: "variants[\(index)]", type: type,
        base: baseFields, seed: seed)
      variants.append(built)
      offsets.append(offset)
    }
    self.variants = variants
    self.offsets = offsets
    overrides = given
    if let value = body.fields["ticks"] {
      guard let ticks = value.intValue, Self.tickRange.contains(ticks) else {
        throw APIError(
          .badRequest, "ticks must be an integer from 1 to \(Self.tickRange.upperBound)",
          field: "ticks")
      }
      self.ticks = ticks
    } else {
      ticks = nil
    }
    readouts = try Self.readouts(body.fields["readouts"], type: type)
    if let given = body.fields["ambient"] {
      let (built, offset) = try Self.variant(
        given, name: "the ambient pane", path: "ambient", type: type, base: baseFields,
        seed: seed)
      guard offset == nil else {
        throw APIError(
          .badRequest, "the ambient pane takes no offset: it loops on its own",
          field: "ambient.offset")
      }
      ambient = (given, built)
    } else {
      ambient = nil
    }
  }

  /// `pane N (variants[N-1])`: how an error names a pane.
  static func pane(_ index: Int) -> String { "pane \(index + 1) (variants[\(index)])" }

  /// A pane's object (`name` in errors, `path` its field): a model built from `base` with its
  /// overrides, or the session its `recording` names; and its `offset`.
  private static func variant(
    _ variant: JSONValue, name: String, path: String, type: any Simulation.Type,
    base: [String: JSONValue], seed: UInt64
  ) throws(APIError) -> (Variant, JSONValue?) {
    guard case .object(var fields) = variant else {
      throw APIError(
        .badRequest, "\(name) must be an object: config overrides, or a recording",
        field: path)
    }
    let offset = fields.removeValue(forKey: "offset")
    if let recording = fields.removeValue(forKey: "recording") {
      guard let id = recording.stringValue, !id.isEmpty, id.count <= maxSessionID else {
        throw APIError(
          .badRequest, "\(name): recording must be a session id",
          field: "\(path).recording")
      }
      if let extra = fields.keys.sorted().first {
        throw APIError(
          .badRequest, "\(name): a recording takes no config overrides",
          field: "\(path).\(extra)")
      }
      return (.recording(id), offset)
    }
    do {
      return (
        .model(try type.init(config: .object(base.merging(fields) { $1 }), seed: seed)), offset
      )
    } catch {
      let field = path + (error.field.map { ".\($0)" } ?? "")
      let named = error.field.map { "\($0): " } ?? ""
      throw APIError(.badRequest, "\(name): \(named)\(error.message)", field: field)
    }
  }

  /// The `readouts` asked for, each one of the kind's; nil when left out.
  private static func readouts(_ value: JSONValue?, type: any Simulation.Type) throws(APIError)
    -> [String]?
  {
    guard let value else { return nil }
    let known = (type as? any ChartReadouts.Type)?.readoutNames ?? []
    let list = known.isEmpty ? "(none)" : known.joined(separator: ", ")
    guard case .array(let items) = value else {
      throw APIError(
        .badRequest, "readouts must be a list of names of \(type.kind)'s readouts: \(list)",
        field: "readouts")
    }
    var names: [String] = []
    for item in items {
      guard let name = item.stringValue else {
        throw APIError(
          .badRequest, "readouts must be a list of names of \(type.kind)'s readouts: \(list)",
          field: "readouts")
      }
      guard known.contains(name) else {
        let shown = name.count > 40 ? String(name.prefix(40)) + "..." : name
        throw APIError(
          .badRequest, "unknown readout \(shown); \(type.kind) has: \(list)", field: "readouts")
      }
      names.append(name)
    }
    return names
  }

  /// The panes, each recording read by `read` (nil when there is no such session) and
  /// checked to be of this kind, and the group's length: `ticks`, or by default the longest
  /// recording's (3,600 without recordings); and the ambient pane, if any, with its own length
  /// (a recording's, or the group's), after which it starts again. Throws naming the pane and
  /// its field.
  func panes(reading read: (String) throws -> StoredRecording?) throws(APIError) -> (
    panes: [ComparePane], end: UInt64, ambient: (pane: ComparePane, end: UInt64)?
  ) {
    var loaded = [StoredRecording?](repeating: nil, count: variants.count)
    for (index, variant) in variants.enumerated() {
      guard case .recording(let id) = variant else { continue }
      loaded[index] = try load(
        id, name: Self.pane(index), field: "variants[\(index)].recording", reading: read)
    }
    let longest = loaded.compactMap { $0 }.map(Self.length).max()
    let length =
      ticks ?? longest.map { min(Self.tickRange.upperBound, max(1, $0)) } ?? Self.defaultTicks
    var panes: [ComparePane] = []
    for (index, variant) in variants.enumerated() {
      var offset = 0
      if let given = offsets[index] {
        guard let value = given.intValue, (-length...length).contains(value) else {
          throw APIError(
            .badRequest,
            "\(Self.pane(index)): offset must be an integer from -\(length) to \(length)",
            field: "variants[\(index)].offset")
        }
        offset = value
      }
      switch variant {
      case .model(let model):
        panes.append(ComparePane(model: model, offset: offset))
      case .recording(let id):
        guard let recording = loaded[index] else { continue }
        panes.append(Self.pane(id, recording, offset: offset))
      }
    }
    switch ambient?.variant {
    case nil:
      return (panes, UInt64(length), nil)
    case .model(let model):
      return (panes, UInt64(length), (ComparePane(model: model), UInt64(length)))
    case .recording(let id):
      let recording = try load(
        id, name: "the ambient pane", field: "ambient.recording", reading: read)
      let own = UInt64(min(Self.tickRange.upperBound, max(1, Self.length(recording))))
      return (panes, UInt64(length), (Self.pane(id, recording, offset: 0), own))
    }
  }

  /// A recording's length in ticks.
  private static func length(_ recording: StoredRecording) -> Int {
    Int(clamping: recording.end - min(recording.end, recording.start.tick))
  }

  private static func pane(_ id: String, _ recording: StoredRecording, offset: Int) -> ComparePane {
    ComparePane(
      session: id, start: recording.start, log: recording.log, last: recording.end, offset: offset)
  }

  /// The stored session `id` as a recording of this kind; errors say `name` and `field`.
  private func load(
    _ id: String, name: String, field: String, reading read: (String) throws -> StoredRecording?
  ) throws(APIError) -> StoredRecording {
    let recording: StoredRecording?
    do {
      recording = try read(id)
    } catch {
      var refused = APIError(
        .serviceUnavailable, "\(name): session \(id) cannot be read now: \(APIError.told(error))",
        field: field)
      refused.headers.set("Retry-After", "1")
      throw refused
    }
    guard let recording else {
      throw APIError(.badRequest, "\(name): no stored session \(id)", field: field)
    }
    guard recording.stored.kind == kind else {
      throw APIError(
        .badRequest, "\(name): session \(id) is a \(recording.stored.kind) run, not \(kind)",
        field: field)
    }
    return recording
  }
}
