import HTTP
import JSON
import Simulation

/// A checked `POST /api/compare` body: `{"kind", "seed", "config", "variants": [overrides, ...],
/// "ticks"}`. Every pane is built here, so a bad request is refused before anything starts.
struct CompareRequest {
  static let paneCounts = 2...4
  /// The default and the allowed lengths of a group, in ticks (one minute; up to ten).
  static let defaultTicks = 3_600
  static let tickRange = 1...36_000

  let kind: String
  let seed: UInt64
  let base: JSONValue
  let overrides: [JSONValue]
  /// Each pane at tick 0: the base config with its overrides on top.
  let panes: [any Simulation]
  let end: UInt64

  /// Checks `body`; `randomSeed` picks the seed when the body names none.
  init(_ body: JSONBody, randomSeed: () -> UInt64) throws(APIError) {
    try body.allowOnly(["kind", "seed", "config", "variants", "ticks"])
    kind = try body.string("kind")
    guard let type = Demo.model(ofKind: kind) else {
      let kinds = Demo.sessionKinds.joined(separator: ", ")
      throw APIError(.badRequest, "kind must be one of: \(kinds)", field: "kind")
    }
    seed = try SessionAPI.seed(in: body) ?? randomSeed()
    guard case .object(let baseFields) = body.fields["config"] ?? .object([:]) else {
      throw APIError(.badRequest, "config must be an object", field: "config")
    }
    base = .object(baseFields)
    guard case .array(let variants) = try body.value("variants") else {
      throw APIError(
        .badRequest, "variants must be an array of 2 to 4 objects of config overrides",
        field: "variants")
    }
    guard Self.paneCounts.contains(variants.count) else {
      throw APIError(
        .badRequest,
        "variants must hold 2 to 4 panes' config overrides (\(variants.count) given)",
        field: "variants")
    }
    do {
      _ = try type.init(config: base, seed: seed)
    } catch {
      throw APIError(
        .badRequest, error.description, field: error.field.map { "config.\($0)" } ?? "config")
    }
    var panes: [any Simulation] = []
    for (index, variant) in variants.enumerated() {
      guard case .object(let fields) = variant else {
        throw APIError(
          .badRequest, "variants[\(index)] must be an object of config overrides",
          field: "variants[\(index)]")
      }
      do {
        panes.append(try type.init(config: .object(baseFields.merging(fields) { $1 }), seed: seed))
      } catch {
        let field = "variants[\(index)]" + (error.field.map { ".\($0)" } ?? "")
        throw APIError(.badRequest, "\(field): \(error.message)", field: field)
      }
    }
    self.panes = panes
    overrides = variants
    let ticks = body.fields["ticks"].map { $0.intValue ?? -1 } ?? Self.defaultTicks
    guard Self.tickRange.contains(ticks) else {
      throw APIError(
        .badRequest, "ticks must be an integer from 1 to \(Self.tickRange.upperBound)",
        field: "ticks")
    }
    end = UInt64(ticks)
  }
}
