/// A model whose whole state is its `Codable` value; gives it snapshots and a state hash.
protocol SnapshotModel: Simulation, Codable {
  /// Checks a decoded model's invariants (config valid, array sizes agree...).
  func validateRestored() throws(SimulationError)
}

/// The snapshot header: magic, format version, kind.
enum SnapshotHeader {
  static let magic: [UInt8] = Array("PFSIM".utf8)
  static let version: UInt8 = 1
  /// The latest tick a snapshot may hold: 2^53, about 4.8 million years at 60 Hz, far from
  /// the overflow of the `UInt64` counter that each step adds one to.
  static let maxTick: UInt64 = 1 << 53
}

extension SnapshotModel {
  /// Magic, version, kind, then the binary encoding of the model value.
  public func snapshot() -> [UInt8] {
    var bytes = SnapshotHeader.magic
    bytes.append(SnapshotHeader.version)
    let kind = Array(Self.kind.utf8)
    bytes.append(UInt8(kind.count))
    bytes += kind
    bytes += SnapshotEncoder.encode(self)
    return bytes
  }

  /// Restores a model from `snapshot()` bytes.
  public init(snapshot bytes: [UInt8]) throws(SimulationError) {
    let magic = SnapshotHeader.magic
    let kind = Array(Self.kind.utf8)
    let headerSize = magic.count + 2 + kind.count
    guard bytes.count >= headerSize, bytes.starts(with: magic) else {
      throw SimulationError(field: "snapshot", message: "is not a Playfield simulation snapshot")
    }
    guard bytes[magic.count] == SnapshotHeader.version else {
      throw SimulationError(
        field: "snapshot", message: "has format version \(bytes[magic.count]), expected 1")
    }
    guard Int(bytes[magic.count + 1]) == kind.count,
      bytes[(magic.count + 2)..<headerSize].elementsEqual(kind)
    else { throw SimulationError(field: "snapshot", message: "is not a \(Self.kind) snapshot") }
    do {
      self = try SnapshotDecoder.decode(Self.self, from: bytes[headerSize...])
    } catch {
      throw SimulationError(field: "snapshot", message: "is corrupt (\(error))")
    }
    guard tick <= SnapshotHeader.maxTick else {
      throw SimulationError(field: "snapshot", message: "holds tick \(tick), past 2^53")
    }
    try validateRestored()
  }

  /// FNV-1a (64-bit) over the snapshot bytes: every bit of config, seed, tick and state.
  public var stateHash: UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in snapshot() {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    return hash
  }
}
