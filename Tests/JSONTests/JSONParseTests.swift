import JSON
import Testing

@Suite("Parsing per RFC 8259")
struct JSONParseTests {
  /// Documents every conforming parser must accept (JSONTestSuite `y_` cases).
  static let accepted: [String] = [
    "[[]   ]", "[\"\"]", "[]", "[\"a\"]", "[false]", "[null, 1, \"1\", {}]", "[1\n]", " [1]",
    "[1,null,null,null,2]", "[2] ", "[123e65]", "[0e+1]", "[0e1]", "[ 4]", "[20e1]", "[-0]",
    "[-123]", "[-1]", "[1E22]", "[1E-2]", "[1E+2]", "[123e45]", "[123.456e78]", "[1e-2]",
    "[1e+2]", "[123]", "[123.456789]", "[-0.0000000000000000000000000000000000000001]",
    "{\"asd\":\"sdf\", \"dfg\":\"fgh\"}", "{\"a\":[]}", "{}",
    "{\"\":0}", "{\"foo\\u0000bar\": 42}", "[\"\\u0060\\u012a\\u12AB\"]", "[\"\\uD801\\udc37\"]",
    "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]", "[\"\\\\u0000\"]", "[\"\\u0000\"]", "[\"asd \"]",
    "[\"\\uDBFF\\uDFFF\"]", "[\"€𝄞\"]", "[\"\u{2028}\u{2029}\"]", "[\"\u{7F}\"]", "\"asd\"",
    "42", "null", "true", "false", " [] ", "\t\r\n{}\t\r\n", "[1e1]", "[0.0e-400]",
    "{\"a\":{\"b\":{\"c\":[1,{\"d\":null}]}}}",
  ]

  /// Documents every conforming parser must reject (JSONTestSuite `n_` cases and our strict
  /// choices: a byte order mark and numbers beyond Double's range).
  static let rejected: [String] = [
    "", " ", "[1 true]", "[\"\": 1]", "[\"\"],", "[,1]", "[1,,2]", "[\"x\",,]", "[\"x\"]]",
    "[\"\",]", "[\"x\"", "[x", "[3[4]]", "[1:2]", "[,]", "[-]", "[   , \"\"]", "[1,]", "[1,,]",
    "[*]", "[\"\"", "[1,", "[{}", "[++1234]", "[+1]", "[+Inf]", "[-01]", "[-1.0.]", "[-2.]",
    "[-NaN]", "[.-1]", "[.2e-3]", "[0.1.2]", "[0.3e+]", "[0.3e]", "[0.e1]", "[0E+]", "[0E]",
    "[0e+]", "[0e]", "[1.0e+]", "[1.0e-]", "[1.0e]", "[1 000.0]", "[1eE2]", "[2.e+3]", "[2.e3]",
    "[9.e+]", "[Inf]", "[NaN]", "[012]", "[-012]", "[0x1]", "[1+2]", "[-foo]", "[- 1]",
    "[Infinity]", "[-Infinity]", "[1.]", "[.123]", "[1ea]", "[0.]", "[1.5e999]", "[-1e400]",
    "[1e-400]", "[1.5e-400]", "[-2.4e-324]", "[0.00000000000000000000001e-310]",
    "{\"a\" b}", "{key: 'value'}", "{\"a\":\"a\" 123}", "{[: \"x\"}", "{\"x\", null}",
    "{\"x\"::\"b\"}", "{\"a\":\"a\"", "{\"a\"", "{1:1}", "{\"a\":\"b\",}", "{\"id\":0,,,,,}",
    "{\"a\":\"b\"}/**/", "{\"a\":\"b\"}#", "{'a':0}", "{\"a\":\"b\"}}", "{null:null}", "{\"a\" :}",
    "[\"\\uD800\\\"]", "[\"\\uD800\\u\"]", "[\"\\uD800\\u1\"]", "[\"\\a\"]", "[\"\\x00\"]",
    "[\"\\\\\\\"]", "[\"\\u00A\"]", "[\"\\uqqqq\"]", "[\"\\ud800\"]", "[\"\\udc00\"]",
    "[\"\\uD800abc\"]", "[\"\\uD800\\n\"]", "[\"\\uD800\\uD800\"]", "['single quote']", "abc",
    "[\"\t\"]", "[\"\n\"]", "[\"\u{0}\"]", "\"", "\"\\\"", "[]x", "[]]", "<.>", "1 2", "{}{}",
    "nul", "tru", "truex", "True", "NULL", "[\u{A0}1]", "[\u{C}]", "[1]\u{0}", "[\"a\"\u{0}]",
  ]

  @Test("accepts valid documents", arguments: accepted)
  func acceptsValid(_ text: String) throws {
    _ = try JSONValue.parse(text)
    _ = try JSONValue.parse(Array(text.utf8))
  }

  @Test("rejects invalid documents", arguments: rejected)
  func rejectsInvalid(_ text: String) {
    #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
  }

  @Test(
    "rejects invalid UTF-8 inside and outside strings",
    arguments: [
      [0x5B, 0x22, 0xE0, 0xFF, 0x22, 0x5D],  // bad continuation
      [0x5B, 0x22, 0xC0, 0x80, 0x22, 0x5D],  // overlong NUL
      [0x5B, 0x22, 0xE0, 0x80, 0xAF, 0x22, 0x5D],  // overlong three-byte
      [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D],  // UTF-8-encoded surrogate
      [0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D],  // beyond U+10FFFF
      [0x5B, 0x22, 0xFF, 0x22, 0x5D],
      [0x5B, 0x22, 0x80, 0x22, 0x5D],  // lone continuation byte
      [0x5B, 0x22, 0xE2, 0x82, 0x22, 0x5D],  // truncated sequence
      [0x5B, 0x22, 0xE2, 0x82],  // truncated at the end of input
      [0x5B, 0xFF, 0x5D],
      [0xEF, 0xBB, 0xBF, 0x7B, 0x7D],  // byte order mark
    ] as [[UInt8]])
  func rejectsInvalidUTF8(_ bytes: [UInt8]) {
    #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes) }
  }

  @Test func parsesScalarsAndContainers() throws {
    let value = try JSONValue.parse(
      #" {"name": "maze", "cells": [[0, 1], [2, 3]], "on": true, "off": false, "none": null} "#)
    #expect(value["name"] == "maze")
    #expect(value["cells"]?[1]?[0]?.intValue == 2)
    #expect(value["on"]?.boolValue == true)
    #expect(value["off"]?.boolValue == false)
    #expect(value["none"]?.isNull == true)
    #expect(value["missing"] == nil)
    #expect(value["cells"]?[2] == nil)
    #expect(value["name"]?["x"] == nil)
  }

  @Test func decodesEscapes() throws {
    let value = try JSONValue.parse(
      #"["\"\\\/\b\f\n\r\t", "\u00e9\u20AC", "\uD834\uDD1E", "a\u0000b"]"#)
    #expect(value == ["\"\\/\u{8}\u{C}\n\r\t", "é€", "𝄞", "a\u{0}b"])
  }

  @Test func keepsRawUnicode() throws {
    #expect(try JSONValue.parse("\"€𝄞\u{2028}é\"") == "€𝄞\u{2028}é")
  }

  @Test func parsesNumbersExactly() throws {
    let cases: [(String, Double)] = [
      ("0", 0), ("-0", -0.0), ("1E22", 1e22), ("123.456e78", 123.456e78), ("0.1", 0.1),
      ("9007199254740993", 9_007_199_254_740_992), ("0e-400", 0), ("-0.000e999", -0.0),
      (
        "2.2250738585072011e-308",
        Double(bitPattern: 0x000F_FFFF_FFFF_FFFF)
      ), ("0.1000000000000000055511151231257827021181583404541015625", 0.1),
      ("1.7976931348623157e308", .greatestFiniteMagnitude), ("5e-324", .leastNonzeroMagnitude),
      ("18446744073709551616", 18_446_744_073_709_551_616), ("-12.5e-1", -1.25),
    ]
    for (text, expected) in cases {
      let parsed = try #require(try JSONValue.parse(text).doubleValue)
      #expect(parsed.bitPattern == expected.bitPattern, "\(text)")
    }
  }

  @Test func fastPathMatchesTheStandardLibrary() throws {
    var state: UInt64 = 0x1234_5678
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 11
    }
    for _ in 0..<20_000 {
      let digits = String(next() % 10_000_000_000_000_000)
      let point = Int(next() % UInt64(digits.count + 1))
      var text = digits
      if point > 0 && point < digits.count && digits.first != "0" {
        text.insert(".", at: text.index(text.startIndex, offsetBy: point))
      }
      if text.first == "0" && text.count > 1 { text = "7" + text.dropFirst() }
      text += "e\(Int(next() % 60) - 30)"
      let parsed = try #require(try JSONValue.parse(text).doubleValue)
      let expected = try #require(Double(text))
      #expect(parsed.bitPattern == expected.bitPattern, "\(text)")
    }
  }

  @Test func intValueOnlyForExactIntegers() throws {
    #expect(try JSONValue.parse("3").intValue == 3)
    #expect(try JSONValue.parse("1e2").intValue == 100)
    #expect(try JSONValue.parse("-3.0").intValue == -3)
    #expect(try JSONValue.parse("3.5").intValue == nil)
    #expect(try JSONValue.parse("1e19").intValue == nil)
    #expect(try JSONValue.parse("-9223372036854775808").intValue == Int.min)
    #expect(try JSONValue.parse("\"3\"").intValue == nil)
  }

  @Test func limitsNestingDepth() throws {
    let deep64 = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    let deep65 = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    _ = try JSONValue.parse(deep64)
    #expect(throws: JSONParseError.self) { try JSONValue.parse(deep65) }
    #expect(throws: JSONParseError.self) { try JSONValue.parse(#"{"a":{"b":[1]}}"#, maxDepth: 2) }
    _ = try JSONValue.parse(#"{"a":{"b":1}}"#, maxDepth: 2)
    _ = try JSONValue.parse("1", maxDepth: 0)
    #expect(throws: JSONParseError.self) { try JSONValue.parse("[]", maxDepth: 0) }
    let hostile = String(repeating: "[", count: 1_000_000)
    #expect(throws: JSONParseError.self) { try JSONValue.parse(hostile) }
  }

  @Test func reportsWhereItFailed() {
    #expect(
      throws: JSONParseError(message: "leading zeros are not allowed", offset: 1, field: "[0]")
    ) {
      try JSONValue.parse("[01]")
    }
    #expect(throws: JSONParseError(message: "unexpected data after the value", offset: 4)) {
      try JSONValue.parse("[1] x")
    }
    #expect(
      throws: JSONParseError(
        message: "lone low surrogate in a \\u escape", offset: 2, field: "[0]")
    ) {
      try JSONValue.parse(#"["\uDC00"]"#)
    }
    #expect(throws: JSONParseError(message: "unexpected end of input", offset: 4)) {
      try JSONValue.parse(#"{"a""#)
    }
    #expect(
      throws: JSONParseError(message: "unexpected character 'x'", offset: 1, field: "[0]")
    ) {
      try JSONValue.parse("[x]")
    }
    let error = JSONParseError(message: "invalid literal", offset: 7)
    #expect(error.description == "invalid literal at byte 7")
  }

  /// A number too large for a double, or one that is not zero but would read as 0 (1e-400),
  /// is refused with the path of the value it was in.
  @Test(arguments: [
    (#"{"config":{"gravity":1e-400}}"#, 21, "config.gravity", "too small for a double"),
    (#"{"balls":[{"x":1},{"x":-2e-324}]}"#, 23, "balls[1].x", "too small for a double"),
    (#"[[0, 1e999]]"#, 5, "[0][1]", "too large for a double"),
    (#"{"a":[{"b":[7, 1E+400]}]}"#, 15, "a[0].b[1]", "too large for a double"),
    ("1e-400", 0, nil, "too small for a double"),
  ])
  func numbersOutOfRangeNameTheirField(
    document: String, offset: Int, field: String?, words: String
  ) {
    let error = #expect(throws: JSONParseError.self) { try JSONValue.parse(document) }
    #expect(error?.offset == offset && error?.field == field)
    #expect(error?.message.contains(words) == true, "\(error?.message ?? "")")
    #expect(error?.description.hasSuffix(field.map { " in \($0)" } ?? "at byte \(offset)") == true)
  }

  @Test func parsesNonContiguousCollections() throws {
    let bytes = Array(#"{"k":[1,2]}"#.utf8)
    #expect(try JSONValue.parse(bytes.lazy.map { $0 }) == ["k": [1, 2]])
    #expect(try JSONValue.parse(bytes[1...3]) == "k")
  }
}
