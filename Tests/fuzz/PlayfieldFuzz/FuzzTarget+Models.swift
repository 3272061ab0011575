import JSON
import Playfield
import Simulation

extension FuzzTarget {
  /// The model the first byte picks, and the rest of the input.
  private static func pick(_ bytes: [UInt8]) -> (any Simulation.Type, ArraySlice<UInt8>)? {
    guard let first = bytes.first else { return nil }
    return (DemoRegistry.models[Int(first) % DemoRegistry.models.count], bytes.dropFirst())
  }

  /// A config is refused with a field, or accepted; an accepted one steps, and its snapshot
  /// restores to an equal snapshot.
  static func config(_ bytes: [UInt8]) {
    guard let (type, rest) = pick(bytes), let json = try? JSONValue.parse(rest, maxDepth: 16)
    else { return }
    guard var model = try? type.init(config: json, seed: 42) else { return }
    for _ in 0..<3 { _ = model.step(checked: []) }
    let snapshot = model.snapshot()
    guard let restored = try? type.init(snapshot: snapshot) else {
      preconditionFailure("a snapshot of an accepted \(type.kind) config does not restore")
    }
    precondition(restored.snapshot() == snapshot, "a \(type.kind) snapshot restores differently")
  }

  /// An input is refused or decoded; a decoded one steps the default model.
  static func input(_ bytes: [UInt8]) {
    guard let (type, rest) = pick(bytes), let json = try? JSONValue.parse(rest, maxDepth: 16),
      var model = try? type.init(config: .object([:]), seed: 42)
    else { return }
    guard let checked = try? type.checkedInput(from: json, sentBy: .controller) else { return }
    for _ in 0..<2 { _ = model.step(checked: [checked]) }
    var writer = JSONWriter(capacity: 256)
    model.writeFrame(into: &writer)
  }

  /// Any bytes are refused as a snapshot or restore a model that steps and snapshots again.
  static func snapshot(_ bytes: [UInt8]) {
    guard let (type, rest) = pick(bytes), var model = try? type.init(snapshot: Array(rest))
    else { return }
    for _ in 0..<2 { _ = model.step(checked: []) }
    _ = model.snapshot()
  }
}
