import JSON

/// Recipes in a page's `<script type="application/ld+json">` blocks.
///
/// Lenient where it is safe: HTML comments and CDATA wrappers around the JSON, raw control
/// characters inside strings, trailing commas, several values in one block, and an empty or
/// broken block before the real one (skipped). Finds recipes at the top level, in arrays, in
/// `@graph`, under `mainEntity` and anywhere nested, and resolves `{"@id": ...}` references to
/// nodes of the same page (images and authors in a Yoast `@graph`).
enum JSONLDReader {
  static func recipes(in document: HTMLDocument) -> [JSONValue] {
    var texts: [String] = []
    for index in document.descendants() {
      let node = document.nodes[index]
      guard node.name == "script",
        let type = node.attribute("type")?.lowercased(),
        type.contains("ld+json")
      else { continue }
      texts.append(node.children.map { document.nodes[$0].text }.joined())
    }
    return recipes(inScripts: texts)
  }

  /// Recipes in the JSON-LD script blocks found in the raw bytes of a page, without its tree:
  /// for pages the HTML parser gave up on part of (libxml2 stops at 256 levels of nesting, so
  /// a block after a deeply nested part is not in the tree).
  static func recipes(inRaw bytes: [UInt8]) -> [JSONValue] {
    recipes(inScripts: scriptBlocks(bytes))
  }

  /// The contents of `<script ...ld+json...>` elements, found by scanning bytes.
  static func scriptBlocks(_ bytes: [UInt8]) -> [String] {
    var texts: [String] = []
    var position = 0
    while let open = find(Array("<script".utf8), in: bytes, from: position) {
      guard let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else { break }
      let tag = String(decoding: bytes[open..<close], as: UTF8.self).lowercased()
      let end = find(Array("</script".utf8), in: bytes, from: close + 1) ?? bytes.count
      if tag.contains("ld+json") {
        texts.append(String(decoding: bytes[(close + 1)..<end], as: UTF8.self))
      }
      position = end
    }
    return texts
  }

  /// Where `needle` (lowercase ASCII) first occurs in `bytes` from `start`, ignoring case.
  private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard needle.count <= bytes.count else { return nil }
    var index = start
    while index + needle.count <= bytes.count {
      guard let first = bytes[index...].firstIndex(of: needle[0]) else { return nil }
      if first + needle.count > bytes.count { return nil }
      var matches = true
      for offset in 1..<needle.count where bytes[first + offset] | 0x20 != needle[offset] {
        matches = false
        break
      }
      if matches { return first }
      index = first + 1
    }
    return nil
  }

  private static func recipes(inScripts texts: [String]) -> [JSONValue] {
    let roots = texts.flatMap(values(in:))
    var identified: [String: JSONValue] = [:]
    var found: [JSONValue] = []
    var stack = Array(roots.reversed())
    while let value = stack.popLast() {
      switch value {
      case .array(let elements):
        stack.append(contentsOf: elements.reversed())
      case .object(let members):
        if let id = members["@id"]?.stringValue, members.count > 1, identified[id] == nil {
          identified[id] = value
        }
        if isRecipe(value) {
          found.append(value)
          // NB: a recipe's own nested values are not searched for more recipes, except
          // for @id-linked nodes resolved below.
          continue
        }
        for key in members.keys.sorted() where key != "@context" {
          // Keep page order for the usual containers.
          if key == "@graph" || key == "mainEntity" || key == "itemListElement" {
            continue
          }
          stack.append(members[key]!)
        }
        for key in ["itemListElement", "mainEntity", "@graph"] {
          if let member = members[key] { stack.append(member) }
        }
      default:
        break
      }
    }
    return found.map { resolve($0, in: identified, depth: 0) }
  }

  /// Whether `value` is typed a Recipe: "Recipe", "schema:Recipe", its IRI, or in a list of
  /// types; in any case ("recipe": pages write it so, and recipe-scrapers reads them). The
  /// type's last segment is the whole name: "NotRecipe" or "schema:MyRecipe" is not a Recipe
  /// (before, any type ending in "recipe" was).
  static func isRecipe(_ value: JSONValue) -> Bool {
    func named(_ type: String) -> Bool { MarkupVocabulary.isRecipeType(type) }
    switch value["@type"] {
    case .string(let type): return named(type)
    case .array(let types): return types.contains { $0.stringValue.map(named) == true }
    default: return false
    }
  }

  /// The properties the importer reads, by their names in lowercase.
  private static let propertyNames: [String: String] = Dictionary(
    uniqueKeysWithValues: [
      "name", "headline", "description", "image", "url", "contentUrl", "thumbnailUrl",
      "recipeIngredient", "ingredients", "recipeInstructions", "itemListElement", "text",
      "totalTime", "prepTime", "cookTime", "performTime", "recipeYield", "yield",
      "recipeCategory", "recipeCuisine", "keywords", "author", "nutrition",
    ].map { ($0.lowercased(), $0) })

  /// `members` with a property some page spells in another case ("ItemListElement",
  /// "RecipeIngredient") under its schema.org name, unless that name is there too: schema.org
  /// names are case-sensitive, but a page that writes one otherwise still means it.
  private static func properlyNamed(_ members: [String: JSONValue]) -> [String: JSONValue] {
    var result = members
    for (key, value) in members where key.first != "@" {
      guard let name = propertyNames[key.lowercased()], name != key, members[name] == nil else {
        continue
      }
      result[name] = value
      result[key] = nil
    }
    return result
  }

  /// Replaces `{"@id": X}` stubs by the node with that id found elsewhere in the page.
  private static func resolve(
    _ value: JSONValue, in identified: [String: JSONValue], depth: Int
  ) -> JSONValue {
    guard depth < 8 else { return value }
    switch value {
    case .array(let elements):
      return .array(elements.map { resolve($0, in: identified, depth: depth + 1) })
    case .object(let members):
      if members.count == 1, let id = members["@id"]?.stringValue, let target = identified[id],
        !isRecipe(target)
      {
        return resolve(target, in: identified, depth: depth + 1)
      }
      return .object(
        properlyNamed(members).mapValues { resolve($0, in: identified, depth: depth + 1) })
    default:
      return value
    }
  }

  /// The JSON values of one script block; [] when it holds none that can be read.
  static func values(in text: String) -> [JSONValue] {
    var bytes = Array(text.utf8)
    strip(&bytes)
    guard !bytes.isEmpty else { return [] }
    if let value = try? JSONValue.parse(bytes) { return [value] }
    var repaired = repair(bytes)
    // A key given twice in one object (the strict parser refuses it): the later is renamed
    // out of the way ("~name") and the earlier kept, up to 32 times.
    for _ in 0..<32 {
      do {
        return [try JSONValue.parse(repaired)]
      } catch {
        guard error.message.hasPrefix("duplicate key"), error.offset < repaired.count,
          repaired[error.offset] == UInt8(ascii: "\"")
        else { break }
        repaired.insert(UInt8(ascii: "~"), at: error.offset + 1)
      }
    }
    // Several top-level values one after another: parse each balanced run.
    return split(repaired).compactMap { try? JSONValue.parse($0) }
  }

  /// Drops whitespace, `<!--`/`-->`, `<![CDATA[`/`]]>` and `//` comment lines around the JSON.
  private static func strip(_ bytes: inout [UInt8]) {
    let wrappers: [[UInt8]] = [
      Array("<!--".utf8), Array("-->".utf8), Array("<![CDATA[".utf8), Array("]]>".utf8),
      Array("//".utf8),
    ]
    var changed = true
    while changed {
      changed = false
      while let first = bytes.first,
        first <= 0x20 || first == 0xEF || first == 0xBB
          || first == 0xBF || first == UInt8(ascii: ";")
      {
        bytes.removeFirst()
      }
      while let last = bytes.last, last <= 0x20 || last == UInt8(ascii: ";") {
        bytes.removeLast()
      }
      for wrapper in wrappers {
        if bytes.starts(with: wrapper) {
          bytes.removeFirst(wrapper.count)
          changed = true
        }
        if bytes.count >= wrapper.count, Array(bytes.suffix(wrapper.count)) == wrapper {
          bytes.removeLast(wrapper.count)
          changed = true
        }
      }
    }
  }

  /// Escapes raw control characters inside strings and drops commas before `}` or `]`.
  private static func repair(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        } else if byte < 0x20 {
          output.append(contentsOf: byte == 0x0A ? Array("\\n".utf8) : Array(" ".utf8))
          continue
        }
        output.append(byte)
        continue
      }
      if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
        var end = output.count
        while end > 0, output[end - 1] <= 0x20 { end -= 1 }
        if end > 0, output[end - 1] == UInt8(ascii: ",") { output.remove(at: end - 1) }
      }
      output.append(byte)
    }
    return output
  }

  /// Top-level balanced `{...}` / `[...]` runs.
  private static func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var runs: [ArraySlice<UInt8>] = []
    var depth = 0
    var start = -1
    var inString = false
    var escaped = false
    for (offset, byte) in bytes.enumerated() {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        if depth == 0 { start = offset }
        depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        guard depth > 0 else { continue }
        depth -= 1
        if depth == 0, start >= 0 { runs.append(bytes[start...offset]) }
      default:
        break
      }
    }
    return runs
  }
}
