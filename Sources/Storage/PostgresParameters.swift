import CLibPQ

/// Statement parameters in PostgreSQL's binary format, each with its type, so nothing is ever
/// spliced into SQL text and bytes arrive as they are: `bigint` and `double precision` as 8
/// big-endian bytes, `text` as UTF-8, `bytea` raw, NULL as no value.
struct PostgresParameters {
  /// The type of each parameter (0, unknown, for NULL: the server infers it).
  private(set) var types: [Oid] = []
  /// Every value's bytes one after another, and where each starts (nil for NULL).
  private var bytes: [UInt8] = []
  private var offsets: [Int?] = []
  private var lengths: [Int32] = []

  /// The OIDs of the built-in types used (pg_type.h).
  private enum TypeID {
    static let bytea: Oid = 17
    static let int8: Oid = 20
    static let text: Oid = 25
    static let float8: Oid = 701
  }

  init(_ values: [SQLValue]) {
    for value in values {
      switch value {
      case .integer(let number):
        append(TypeID.int8, withUnsafeBytes(of: number.bigEndian, Array.init))
      case .real(let number):
        append(TypeID.float8, withUnsafeBytes(of: number.bitPattern.bigEndian, Array.init))
      case .text(let text):
        append(TypeID.text, Array(text.utf8))
      case .blob(let blob):
        append(TypeID.bytea, blob)
      case .null:
        types.append(0)
        offsets.append(nil)
        lengths.append(0)
      }
    }
    // NB: an empty value needs a real pointer (a null pointer is SQL NULL), so the buffer is
    // never empty.
    bytes.append(0)
  }

  /// The parameter types as text, to tell prepared statements of one SQL apart by their types.
  var signature: String {
    types.map(String.init).joined(separator: ",")
  }

  /// Calls `body` with libpq's parallel arrays: count, values, lengths and formats (all binary).
  func withArguments<R>(
    _ body: (
      Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?
    ) throws(PostgresError) -> R
  ) throws(PostgresError) -> R {
    let formats = [Int32](repeating: 1, count: types.count)
    return try bytes.withUnsafeBufferPointer { buffer throws(PostgresError) -> R in
      let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
      let pointers = offsets.map { offset in offset.map { base + $0 } }
      return try pointers.withUnsafeBufferPointer { values throws(PostgresError) -> R in
        try lengths.withUnsafeBufferPointer { lengths throws(PostgresError) -> R in
          try formats.withUnsafeBufferPointer { formats throws(PostgresError) -> R in
            try body(
              Int32(types.count), values.baseAddress, lengths.baseAddress, formats.baseAddress)
          }
        }
      }
    }
  }

  private mutating func append(_ type: Oid, _ value: [UInt8]) {
    types.append(type)
    offsets.append(bytes.count)
    lengths.append(Int32(value.count))
    bytes += value
  }
}
