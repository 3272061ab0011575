import Testing

@testable import Storage

@Suite struct NameValidatorTests {
  @Test(arguments: [
    ("Ada", "Ada"),
    ("  padded name ", "padded name"),
    ("Zoë 😀", "Zoë 😀"),
    ("cafe\u{301}", "caf\u{E9}"),
    (String(repeating: "x", count: 32), String(repeating: "x", count: 32)),
    ("<script>", "<script>"),
  ])
  func acceptsAndNormalizes(raw: String, expected: String) throws {
    #expect(try NameValidator.validate(raw) == expected)
  }

  @Test(arguments: [
    ("", "name is empty"),
    ("   ", "name is empty"),
    (String(repeating: "x", count: 33), "name is longer than 32 characters"),
    (
      String(repeating: "e\u{301}\u{302}\u{303}\u{304}", count: 20),
      "name is too long (more than 128 bytes of UTF-8)"
    ),
    ("tab\there", "name contains a control or invisible character (U+0009)"),
    ("new\nline", "name contains a control or invisible character (U+000A)"),
    ("zero\u{200B}width", "name contains a control or invisible character (U+200B)"),
    ("bidi\u{202E}flip", "name contains a control or invisible character (U+202E)"),
    ("private\u{E000}", "name contains a control or invisible character (U+E000)"),
    ("line\u{2028}sep", "name contains a control or invisible character (U+2028)"),
  ])
  func rejectsWithAReason(raw: String, reason: String) {
    #expect(throws: StoreError.invalidName(reason)) { try NameValidator.validate(raw) }
  }
}
