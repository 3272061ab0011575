/// Decodes what `SnapshotEncoder` wrote; throws `DecodingError` on truncated or malformed bytes.
enum SnapshotDecoder {
  /// Decodes a `Value` from the start of `bytes`; all bytes must be used.
  static func decode<Value: Decodable>(_ type: Value.Type, from bytes: ArraySlice<UInt8>) throws
    -> Value
  {
    let source = SnapshotSource(bytes: bytes)
    let value = try Value(from: SnapshotDecoding(source: source))
    guard source.position == bytes.endIndex else {
      throw SnapshotSource.corrupt("trailing bytes after the snapshot")
    }
    return value
  }
}

/// The input and read position shared by every container of one decoding.
final class SnapshotSource {
  let bytes: ArraySlice<UInt8>
  var position: Int

  init(bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    position = bytes.startIndex
  }

  static func corrupt(_ message: String) -> DecodingError {
    .dataCorrupted(.init(codingPath: [], debugDescription: message))
  }

  func read<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
    let size = MemoryLayout<Integer>.size
    guard bytes.endIndex - position >= size else { throw Self.corrupt("snapshot is truncated") }
    var value: Integer = 0
    for offset in 0..<size {
      value |= Integer(truncatingIfNeeded: bytes[position + offset]) << (8 * offset)
    }
    position += size
    return value
  }

  func readCount() throws -> Int {
    let count = try read(UInt64.self)
    guard count <= UInt64(bytes.endIndex - position) else {
      throw Self.corrupt("snapshot count \(count) exceeds the remaining bytes")
    }
    return Int(count)
  }

  func readString() throws -> String {
    let count = try readCount()
    let utf8 = bytes[position..<position + count]
    position += count
    guard let text = String(validating: utf8, as: UTF8.self) else {
      throw Self.corrupt("snapshot string is not UTF-8")
    }
    return text
  }

  /// An array of 8-byte values written with a count, as `SnapshotBuffer.append` writes them.
  func readWords<Element>(_ convert: (UInt64) -> Element) throws -> [Element] {
    let count = try readCount()
    guard count <= (bytes.endIndex - position) / 8 else {
      throw Self.corrupt("snapshot is truncated")
    }
    var elements: [Element] = []
    elements.reserveCapacity(count)
    for _ in 0..<count { elements.append(convert(try read(UInt64.self))) }
    return elements
  }

  func readBool() throws -> Bool {
    switch try read(UInt8.self) {
    case 0: return false
    case 1: return true
    default: throw Self.corrupt("snapshot Boolean is not 0 or 1")
    }
  }

  func readValue<Value: Decodable>(_ type: Value.Type) throws -> Value {
    // NB: the casts go through Any because Swift cannot cast a concrete value to a generic
    // parameter without it; they mirror `write(_:to:)` in SnapshotEncoder.swift.
    let value: Any
    switch type {
    case is Double.Type: value = Double(bitPattern: try read(UInt64.self))
    case is [Double].Type: value = try readWords { Double(bitPattern: $0) }
    case is [Int].Type: value = try readWords { Int(Int64(bitPattern: $0)) }
    case is Int.Type: value = Int(try read(Int64.self))
    case is UInt64.Type: value = try read(UInt64.self)
    case is UInt8.Type: value = try read(UInt8.self)
    case is Bool.Type: value = try readBool()
    case is String.Type: value = try readString()
    default: return try Value(from: SnapshotDecoding(source: self))
    }
    guard let typed = value as? Value else { throw Self.corrupt("snapshot type mismatch") }
    return typed
  }
}

private struct SnapshotDecoding: Decoder {
  let source: SnapshotSource
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(SnapshotKeyedDecoder<Key>(source: source))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try SnapshotUnkeyedDecoder(source: source)
  }

  func singleValueContainer() -> any SingleValueDecodingContainer {
    SnapshotValueDecoder(source: source)
  }
}

private struct SnapshotKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let source: SnapshotSource
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { [] }

  func contains(_ key: Key) -> Bool { true }

  func decodeNil(forKey key: Key) throws -> Bool {
    throw SnapshotSource.corrupt("optionals are not supported in snapshots")
  }

  func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
    try source.readValue(type)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) -> KeyedDecodingContainer<NestedKey> {
    KeyedDecodingContainer(SnapshotKeyedDecoder<NestedKey>(source: source))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try SnapshotUnkeyedDecoder(source: source)
  }

  func superDecoder() -> any Decoder { SnapshotDecoding(source: source) }

  func superDecoder(forKey key: Key) -> any Decoder { SnapshotDecoding(source: source) }
}

private struct SnapshotUnkeyedDecoder: UnkeyedDecodingContainer {
  let source: SnapshotSource
  let count: Int?
  private(set) var currentIndex = 0
  var codingPath: [any CodingKey] { [] }
  var isAtEnd: Bool { currentIndex >= count ?? 0 }

  init(source: SnapshotSource) throws {
    self.source = source
    count = try source.readCount()
  }

  private mutating func takeOne() throws {
    guard !isAtEnd else { throw SnapshotSource.corrupt("read past the end of a snapshot array") }
    currentIndex += 1
  }

  mutating func decodeNil() throws -> Bool {
    throw SnapshotSource.corrupt("optionals are not supported in snapshots")
  }

  mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
    try takeOne()
    return try source.readValue(type)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try takeOne()
    return KeyedDecodingContainer(SnapshotKeyedDecoder<NestedKey>(source: source))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try takeOne()
    return try SnapshotUnkeyedDecoder(source: source)
  }

  mutating func superDecoder() throws -> any Decoder {
    try takeOne()
    return SnapshotDecoding(source: source)
  }
}

private struct SnapshotValueDecoder: SingleValueDecodingContainer {
  let source: SnapshotSource
  var codingPath: [any CodingKey] { [] }

  func decodeNil() -> Bool { false }

  func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
    try source.readValue(type)
  }
}
