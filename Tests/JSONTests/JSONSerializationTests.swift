import JSON
import TestSupport
import Testing

@Suite("Serialization and the streaming writer")
struct JSONSerializationTests {
  @Test func sortsKeysAndIsCompact() {
    let value: JSONValue = ["b": 1, "a": [true, .null, "x"], "": ["z": 1.5, "y": -2]]
    #expect(value.jsonString == #"{"":{"y":-2,"z":1.5},"a":[true,null,"x"],"b":1}"#)
  }

  @Test func sameMembersGiveSameBytesWhateverTheInsertionOrder() {
    var first: [String: JSONValue] = [:]
    var second: [String: JSONValue] = [:]
    let names = (0..<200).map { "key\($0)" }
    for name in names { first[name] = .string(name) }
    for name in names.reversed() { second[name] = .string(name) }
    #expect(JSONValue.object(first).serialized() == JSONValue.object(second).serialized())
  }

  @Test func escapesForHTMLAndJavaScript() {
    let text = "<script>&</script>\"\\\n\r\t\u{8}\u{C}\u{1}\u{1F}\u{7F}\u{2028}\u{2029}€é\u{E2}"
    let expected =
      #""\u003cscript\u003e\u0026\u003c/script\u003e\"\\\n\r\t\b\f\u0001\u001f"#
      + "\u{7F}" + #"\u2028\u2029"# + "€é\u{E2}\""
    #expect(JSONValue.string(text).jsonString == expected)
  }

  @Test func writesNumbersInShortestRoundTripForm() {
    let cases: [(Double, String)] = [
      (0, "0"), (-0.0, "-0"), (1, "1"), (-42, "-42"), (0.1, "0.1"), (1.5, "1.5"), (1e-7, "1e-07"),
      (1e300, "1e+300"), (123_456_789, "123456789"), (9_007_199_254_740_991, "9007199254740991"),
      (9_007_199_254_740_992, "9007199254740992"), (1e16, "1e+16"), (-2.5e-5, "-2.5e-05"),
      (.nan, "null"), (.infinity, "null"),
      (-.infinity, "null"), (.leastNonzeroMagnitude, "5e-324"),
      (0.30000000000000004, "0.30000000000000004"),
    ]
    for (number, text) in cases {
      #expect(JSONValue.number(number).jsonString == text)
    }
  }

  @Test func writesIntegers() {
    var writer = JSONWriter()
    writer.beginArray()
    for value in [0, 7, -7, 10, 100, Int.max, Int.min] { writer.number(value) }
    writer.endArray()
    #expect(writer.string == "[0,7,-7,10,100,9223372036854775807,-9223372036854775808]")
  }

  @Test func writesRoundedNumbers() {
    let cases: [(Double, Int, String)] = [
      (3.14159, 2, "3.14"), (2, 2, "2"), (1.5, 2, "1.5"), (-0.001, 2, "0"), (-1.25, 1, "-1.3"),
      (0.05, 2, "0.05"), (0.007, 3, "0.007"), (123.456, 0, "123"), (-123.456, 2, "-123.46"),
      (99.999, 2, "100"), (1e300, 2, "1e+300"), (.nan, 2, "null"),
      (0.123456789012, 12, "0.123456789"),
      (12.5, -1, "13"),
    ]
    for (number, decimals, text) in cases {
      var writer = JSONWriter()
      writer.number(number, decimals: decimals)
      #expect(writer.string == text, "\(number) to \(decimals)")
    }
  }

  @Test func roundedNumbersParseBackWithinHalfAUnit() throws {
    var state: UInt64 = 99
    for _ in 0..<10_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let number = (Double(state >> 11) / Double(1 << 53) - 0.5) * 4_000
      var writer = JSONWriter()
      writer.number(number, decimals: 2)
      let back = try #require(try JSONValue.parse(writer.bytes).doubleValue)
      #expect(abs(back - number) <= 0.005 + 1e-9)
    }
  }

  @Test func writerPlacesCommasAndColons() {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("type", "frame")
    writer.field("tick", 42)
    writer.key("xy")
    writer.beginArray()
    writer.number(1.234, decimals: 2)
    writer.number(5.0)
    writer.beginObject()
    writer.endObject()
    writer.beginArray()
    writer.endArray()
    writer.null()
    writer.bool(false)
    writer.endArray()
    writer.field("energy", 0.5)
    writer.field("x", 1.006, decimals: 2)
    writer.field("ok", true)
    writer.field("config", ["b": 2, "a": 1])
    writer.key("pre")
    writer.raw(Array(#"{"z":0}"#.utf8))
    writer.endObject()
    #expect(
      writer.string
        == #"{"type":"frame","tick":42,"xy":[1.23,5,{},[],null,false],"energy":0.5,"x":1.01,"ok":true,"config":{"a":1,"b":2},"pre":{"z":0}}"#
    )
    writer.reset()
    writer.beginArray()
    writer.endArray()
    #expect(writer.string == "[]")
  }

  @Test func randomValuesRoundTrip() throws {
    var random = SplitMix64(seed: 7)
    for _ in 0..<300 {
      let value = random.value(depth: 4)
      let bytes = value.serialized()
      let back = try JSONValue.parse(bytes)
      #expect(back == value)
      #expect(back.serialized() == bytes)
    }
  }
}

/// Random JSON trees for round-trip tests.
extension SplitMix64 {
  mutating func value(depth: Int) -> JSONValue {
    switch next() % (depth > 0 ? 7 : 4) {
    case 0: return .null
    case 1: return .bool(next() % 2 == 0)
    case 2: return .number(number())
    case 3: return .string(string())
    case 4, 5: return .array((0..<Int(next() % 5)).map { _ in value(depth: depth - 1) })
    default:
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int(next() % 5) { members[string()] = value(depth: depth - 1) }
      return .object(members)
    }
  }

  mutating func number() -> Double {
    switch next() % 3 {
    case 0: return Double(Int64(bitPattern: next()) >> 20)
    case 1: return Double(next() % 100_000) / 100
    default:
      while true {
        let candidate = Double(bitPattern: next())
        if candidate.isFinite { return candidate }
      }
    }
  }

  mutating func string() -> String {
    let pool: [Unicode.Scalar] = [
      "a", "Z", "0", " ", "\"", "\\", "/", "<", ">", "&", "\u{0}", "\u{1F}", "\n", "\u{7F}",
      "é", "€", "\u{2028}", "\u{2029}", "\u{E2}", "𝄞", "😀", "\u{FFFF}", "\u{10FFFF}",
    ]
    var text = String.UnicodeScalarView()
    for _ in 0..<Int(next() % 8) { text.append(pool[Int(next() % UInt64(pool.count))]) }
    return String(text)
  }
}
