import Simulation

/// The binary answer to a batch `step` (`/ws/batch`, docs/protocol.md "Batch stepping"): a
/// 16-byte header, then little-endian arrays a client reads with `numpy.frombuffer`.
///
///     0   4 bytes  "PFB1"
///     4   u32      the request's id
///     8   u32      n, the sessions stepped, in the request's order
///     12  u32      w, values per session
///     16  n u64    each session's tick after the step
///     ..  n*w f64  each session's values (`BatchStepping.batchFields`), row by row
///     ..  n u8     each session's status: 0 stepped; not stepped (values 0): 1 deleted, 2
///                  fenced (this process may not apply anything to it now; its tick given)
///     ..  n u64    each session's `stored` watermark: every input applied at or before this
///                  tick is durably stored (`LiveSession.storedWatermark`)
struct BatchReply: Sendable {
  static let magic: [UInt8] = Array("PFB1".utf8)
  static let stepped: UInt8 = 0
  static let deleted: UInt8 = 1
  static let fenced: UInt8 = 2

  let request: UInt32
  let width: Int
  private(set) var ticks: [UInt64] = []
  var values: BatchValues
  private(set) var status: [UInt8] = []
  private(set) var stored: [UInt64] = []

  init(request: UInt32, sessions: Int, width: Int) {
    self.request = request
    self.width = width
    ticks.reserveCapacity(sessions)
    status.reserveCapacity(sessions)
    stored.reserveCapacity(sessions)
    values = BatchValues(capacity: sessions * width)
  }

  /// The next session stepped to `tick` (its values are appended to `values`), its inputs
  /// stored through `stored`.
  mutating func stepped(tick: UInt64, stored: UInt64) {
    ticks.append(tick)
    status.append(Self.stepped)
    self.stored.append(stored)
  }

  /// The next session was not stepped (`deleted`, `fenced`); its values are 0.
  mutating func notStepped(_ why: UInt8, tick: UInt64, stored: UInt64 = 0) {
    ticks.append(tick)
    for _ in 0..<width { values.append(0) }
    status.append(why)
    self.stored.append(stored)
  }

  var bytes: [UInt8] {
    let count = 16 + ticks.count * 17 + values.values.count * 8
    return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      var out = UnsafeMutableRawBufferPointer(buffer)
      Self.put(Self.magic, into: &out)
      Self.put(Self.littleEndian([request, UInt32(ticks.count), UInt32(width)]), into: &out)
      Self.put(Self.littleEndian(ticks), into: &out)
      #if _endian(little)
        Self.put(values.values, into: &out)
      #else
        Self.put(values.values.map(\.bitPattern.littleEndian), into: &out)
      #endif
      Self.put(status, into: &out)
      Self.put(Self.littleEndian(stored), into: &out)
      initialized = count - out.count
    }
  }

  /// Copies `elements`' bytes to the front of `out`, and moves `out` past them.
  private static func put<Element: BitwiseCopyable>(
    _ elements: [Element], into out: inout UnsafeMutableRawBufferPointer
  ) {
    elements.withUnsafeBytes { out.copyMemory(from: $0) }
    out = UnsafeMutableRawBufferPointer(
      rebasing: out[(elements.count * MemoryLayout<Element>.stride)...])
  }

  /// `words` as their little-endian forms (themselves on a little-endian machine).
  private static func littleEndian<Word: FixedWidthInteger>(_ words: [Word]) -> [Word] {
    #if _endian(little)
      words
    #else
      words.map(\.littleEndian)
    #endif
  }
}
