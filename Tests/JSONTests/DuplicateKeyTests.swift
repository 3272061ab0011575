import JSON
import Testing

@Suite("Duplicate object keys")
struct DuplicateKeyTests {
  @Test(
    "a repeated key is refused at the repeat",
    arguments: [
      (#"{"a":"b","a":"c"}"#, "a", 9, nil),
      (#"{"kind":"maze","config":{},"kind":"holes"}"#, "kind", 27, nil),
      (#"[{"x":1,"y":2,"x":1}]"#, "x", 14, "[0]"),
      (#"{"a":{"b":1,"b":1}}"#, "b", 12, "a"),
      (#"{"a":1,"\u0061":2}"#, "a", 7, nil),
    ])
  func repeated(document: String, key: String, offset: Int, field: String?) {
    #expect(
      throws: JSONParseError(
        message: "duplicate key \"\(key)\"", offset: offset, field: field)
    ) {
      try JSONValue.parse(document)
    }
  }

  @Test("the same key in sibling and nested objects is fine")
  func siblings() throws {
    let value = try JSONValue.parse(#"[{"a":1},{"a":2},{"b":{"a":3}}]"#)
    #expect(value[1]?["a"] == 2)
    #expect(value[2]?["b"]?["a"] == 3)
  }
}
