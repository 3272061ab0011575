/// A fast streaming JSON writer for hot paths: no intermediate `JSONValue`, commas automatic.
///
/// Write `beginObject()`, then `key(_:)` and one value per member, then `endObject()`; arrays
/// the same way without keys. The writer does not check that calls nest properly: it is meant
/// for code that builds known shapes. Strings are escaped so the output is safe inside an HTML
/// `<script>` element; non-finite doubles are written as `null` (JSON has no NaN or Infinity).
public struct JSONWriter: Sendable {
  /// The UTF-8 output so far.
  public var bytes: [UInt8]
  private var needsComma = false

  /// Makes an empty writer with room for `capacity` bytes.
  public init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// Empties the output but keeps its storage, to reuse one writer for many messages.
  public mutating func reset() {
    bytes.removeAll(keepingCapacity: true)
    needsComma = false
  }

  /// The output as a string.
  public var string: String { String(decoding: bytes, as: UTF8.self) }

  /// Writes `{`.
  public mutating func beginObject() {
    separate()
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
  }

  /// Writes `}`.
  public mutating func endObject() {
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  /// Writes `[`.
  public mutating func beginArray() {
    separate()
    bytes.append(UInt8(ascii: "["))
    needsComma = false
  }

  /// Writes `]`.
  public mutating func endArray() {
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// Writes an object member's name and the colon; the next call writes its value.
  public mutating func key(_ name: String) {
    separate()
    appendQuoted(name)
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// Writes a string value, escaped.
  public mutating func string(_ text: String) {
    separate()
    appendQuoted(text)
    needsComma = true
  }

  /// Writes a number in its shortest round-trip form; integral values below 2^53 have no
  /// fraction or exponent; NaN and infinities become `null`.
  public mutating func number(_ value: Double) {
    separate()
    appendDouble(value)
    needsComma = true
  }

  /// Writes an integer.
  public mutating func number(_ value: Int) {
    separate()
    appendInteger(value)
    needsComma = true
  }

  /// Writes `value` rounded to `decimals` places (0 to 9) with trailing zeros dropped, cheaply:
  /// `number(1.005, decimals: 2)` gives `1` or `1.01` as the binary value rounds, `-0.001` gives
  /// `0`. Used for frames, where positions to 0.01 px keep messages small. Falls back to the
  /// exact form past 2^53 after scaling; NaN and infinities become `null`.
  public mutating func number(_ value: Double, decimals: Int) {
    separate()
    needsComma = true
    let places = min(max(decimals, 0), 9)
    let divisor = Self.powerOfTen(places)
    let scaled = value * Double(divisor)
    guard scaled.isFinite, abs(scaled) < 9_007_199_254_740_992 else {
      appendDouble(value)
      return
    }
    // NB: adding one half and truncating is a conversion instruction, where rounded() is a
    // libm call; it can differ from exact decimal rounding by one unit in the last place.
    let magnitude = UInt64(abs(scaled) + 0.5)
    if scaled < 0 && magnitude != 0 { bytes.append(UInt8(ascii: "-")) }
    appendDigits(magnitude / divisor)
    var fraction = magnitude % divisor
    guard fraction != 0 else { return }
    var width = places
    while fraction % 10 == 0 {
      fraction /= 10
      width -= 1
    }
    bytes.append(UInt8(ascii: "."))
    appendDigits(fraction, width: width)
  }

  /// Writes `true` or `false`.
  public mutating func bool(_ value: Bool) {
    separate()
    appendASCII(value ? "true" : "false")
    needsComma = true
  }

  /// Writes `null`.
  public mutating func null() {
    separate()
    appendASCII("null")
    needsComma = true
  }

  /// Writes a whole value; object keys are sorted by their UTF-8 bytes so output is deterministic.
  public mutating func value(_ value: JSONValue) {
    switch value {
    case .null: null()
    case .bool(let flag): bool(flag)
    case .number(let number): self.number(number)
    case .string(let text): string(text)
    case .array(let elements):
      beginArray()
      for element in elements { self.value(element) }
      endArray()
    case .object(let members):
      beginObject()
      for (name, member) in members.sorted(by: {
        $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
      }) {
        key(name)
        self.value(member)
      }
      endObject()
    }
  }

  /// Writes already serialized JSON as one value; the caller vouches that it is valid.
  public mutating func raw(_ json: some Sequence<UInt8>) {
    separate()
    bytes.append(contentsOf: json)
    needsComma = true
  }

  private mutating func separate() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }
}
