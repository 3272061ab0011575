/// Encodes a `Codable` value as compact little-endian bytes: fields in declaration order, no
/// keys, doubles as their bit patterns, arrays and strings prefixed with their counts.
///
/// NB: synthesized `Codable` encodes and decodes stored properties in declaration order, which
/// is what lets this format drop keys. Optionals and enums with payloads are not supported
/// (the decoder throws), so model states use neither.
enum SnapshotEncoder {
  /// The bytes of `value`.
  static func encode(_ value: some Encodable) -> [UInt8] {
    let storage = SnapshotBuffer()
    do {
      try value.encode(to: SnapshotEncoding(storage: storage))
    } catch {
      // NB: these containers never throw; a model type that throws while encoding is a bug.
      preconditionFailure("snapshot encoding failed: \(error)")
    }
    return storage.bytes
  }
}

/// The growing output shared by every container of one encoding.
final class SnapshotBuffer {
  var bytes: [UInt8] = []

  func append<Integer: FixedWidthInteger>(_ value: Integer) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  func append(_ text: String) {
    append(UInt64(text.utf8.count))
    bytes.append(contentsOf: text.utf8)
  }

  func append(_ doubles: [Double]) {
    append(UInt64(doubles.count))
    for double in doubles { append(double.bitPattern) }
  }

  func append(_ integers: [Int]) {
    append(UInt64(integers.count))
    for integer in integers { append(Int64(integer)) }
  }

  func patch(_ value: UInt64, at position: Int) {
    withUnsafeBytes(of: value.littleEndian) { raw in
      for offset in 0..<8 { bytes[position + offset] = raw[offset] }
    }
  }
}

private struct SnapshotEncoding: Encoder {
  let storage: SnapshotBuffer
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(SnapshotKeyedEncoder<Key>(storage: storage))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    SnapshotUnkeyedEncoder(storage: storage)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SnapshotValueEncoder(storage: storage)
  }
}

/// Writes one value of any supported type; shared by the three container kinds.
private func write(_ value: some Encodable, to storage: SnapshotBuffer) throws {
  switch value {
  case let double as Double: storage.append(double.bitPattern)
  case let doubles as [Double]: storage.append(doubles)
  case let integers as [Int]: storage.append(integers)
  case let integer as Int: storage.append(Int64(integer))
  case let integer as UInt64: storage.append(integer)
  case let integer as UInt8: storage.append(integer)
  case let flag as Bool: storage.append(UInt8(flag ? 1 : 0))
  case let text as String: storage.append(text)
  default: try value.encode(to: SnapshotEncoding(storage: storage))
  }
}

private struct SnapshotKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let storage: SnapshotBuffer
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil(forKey key: Key) throws {
    throw EncodingError.invalidValue(
      key.stringValue, .init(codingPath: [key], debugDescription: "optionals are not supported"))
  }

  mutating func encode(_ value: some Encodable, forKey key: Key) throws {
    try write(value, to: storage)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(SnapshotKeyedEncoder<NestedKey>(storage: storage))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    SnapshotUnkeyedEncoder(storage: storage)
  }

  mutating func superEncoder() -> any Encoder { SnapshotEncoding(storage: storage) }

  mutating func superEncoder(forKey key: Key) -> any Encoder { SnapshotEncoding(storage: storage) }
}

private struct SnapshotUnkeyedEncoder: UnkeyedEncodingContainer {
  let storage: SnapshotBuffer
  private let countPosition: Int
  private(set) var count = 0
  var codingPath: [any CodingKey] { [] }

  init(storage: SnapshotBuffer) {
    self.storage = storage
    countPosition = storage.bytes.count
    storage.append(UInt64(0))
  }

  private mutating func countOne() {
    count += 1
    storage.patch(UInt64(count), at: countPosition)
  }

  mutating func encodeNil() throws {
    throw EncodingError.invalidValue(
      0, .init(codingPath: [], debugDescription: "optionals are not supported"))
  }

  mutating func encode(_ value: some Encodable) throws {
    countOne()
    try write(value, to: storage)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    countOne()
    return KeyedEncodingContainer(SnapshotKeyedEncoder<NestedKey>(storage: storage))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    countOne()
    return SnapshotUnkeyedEncoder(storage: storage)
  }

  mutating func superEncoder() -> any Encoder {
    countOne()
    return SnapshotEncoding(storage: storage)
  }
}

private struct SnapshotValueEncoder: SingleValueEncodingContainer {
  let storage: SnapshotBuffer
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() throws {
    throw EncodingError.invalidValue(
      0, .init(codingPath: [], debugDescription: "optionals are not supported"))
  }

  mutating func encode(_ value: some Encodable) throws {
    try write(value, to: storage)
  }
}
