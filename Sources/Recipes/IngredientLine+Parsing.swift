extension IngredientLine {
  /// Splits one ingredient line; never fails (a line it cannot read is all name).
  public static func parse(_ text: String) -> IngredientLine {
    var scanner = IngredientScanner(HTMLText.collapse(text))
    let quantity = scanner.quantity()
    var unit: String?
    if quantity != nil || scanner.startsWithUnitWord() {
      unit = scanner.unit()
    }
    scanner.skipWord("of")
    var rest = scanner.rest
    var notes: [String] = []
    // Parenthesised asides are notes: "butter (softened)".
    while let open = rest.firstIndex(of: "("),
      let close = rest[open...].firstIndex(of: ")")
    {
      let aside = HTMLText.collapse(String(rest[rest.index(after: open)..<close]))
      if !aside.isEmpty { notes.append(aside) }
      rest = String(rest[..<open]) + " " + String(rest[rest.index(after: close)...])
    }
    var name = HTMLText.collapse(rest)
    if let comma = name.firstIndex(of: ",") {
      let after = HTMLText.collapse(String(name[name.index(after: comma)...]))
      if !after.isEmpty { notes.insert(after, at: 0) }
      name = HTMLText.collapse(String(name[..<comma]))
    }
    return IngredientLine(
      text: text, quantity: quantity, unit: unit, name: name,
      note: notes.isEmpty ? nil : notes.joined(separator: "; "))
  }
}
