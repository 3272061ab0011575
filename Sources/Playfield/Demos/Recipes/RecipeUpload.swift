import Foundation
import HTTP
import JSON
import Recipes
import WebSocket

/// What an import's body holds, read and checked: the recipes a page or a JSON-LD file gave
/// (schema.org `Recipe` objects, normalised by the extractor), or a whole Playfield book export.
enum RecipeUpload {
  /// Recipes found in a page or JSON-LD, best first.
  case recipes([JSONValue])
  /// A book export's recipes with their tags, in the export's order.
  case book([BookEntry])

  /// One recipe of a book export.
  struct BookEntry {
    var recipe: JSONValue
    var tags: [String]
  }

  /// What a book export says it is (`"playfield": "recipe-book"`).
  static let bookFormat = "recipe-book"

  /// Reads `request`'s body as an HTML page (`text/html`), JSON-LD or a book export
  /// (`application/ld+json`, `application/json`); `url` is the page's address, for relative
  /// links. Throws a 4xx naming what is wrong; nothing is stored either way.
  init(_ request: Request, url: String?, maxBytes: Int) throws(APIError) {
    guard request.declaresBody, !request.body.isEmpty else {
      throw APIError(
        .badRequest,
        "send the page as the body (Content-Type: text/html), or a schema.org JSON-LD file or "
          + "a Playfield book export (Content-Type: application/ld+json)")
    }
    guard request.body.count <= maxBytes else {
      throw APIError(
        .contentTooLarge, "the body is larger than \(maxBytes) bytes (--recipe-import-bytes)")
    }
    switch try Self.mediaType(request) {
    case .html: self = try Self.page(request.body, url: url)
    case .json: self = try Self.json(request.body, url: url)
    }
  }

  /// Reads a page a URL import fetched: `contentType` as its server declared it (guessed from
  /// the first character when missing), `url` where it came from.
  init(fetched body: [UInt8], contentType: String, url: String) throws(APIError) {
    guard !body.isEmpty else { throw APIError(HTTPStatus(422), "\(url) sent an empty page") }
    let media = Self.media(contentType)
    switch media {
    case "text/html", "application/xhtml+xml": self = try Self.page(body, url: url)
    case "application/ld+json", "application/json": self = try Self.json(body, url: url)
    case "":
      let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
      let json = first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
      self = try json ? Self.json(body, url: url) : Self.page(body, url: url)
    default:
      throw APIError(
        HTTPStatus(422), "\(url) is \(media), not an HTML page or schema.org JSON-LD")
    }
  }

  private enum Media { case html, json }

  /// `text/html` of `text/html; charset=utf-8`.
  private static func media(_ type: String) -> String {
    (type.split(separator: ";", maxSplits: 1).first ?? "")
      .trimmingCharacters(in: .whitespaces).lowercased()
  }

  /// The body's type: declared, or, untyped from this site's own pages only, guessed from its
  /// first character (see `JSONBody.isJSON`).
  private static func mediaType(_ request: Request) throws(APIError) -> Media {
    guard let type = request.headers["Content-Type"] else {
      guard request.headers["Origin"] != nil, OriginPolicy().allows(request) else {
        throw unsupported("no Content-Type")
      }
      let first = request.body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
      return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .html
    }
    let media = Self.media(type)
    switch media {
    case "text/html", "application/xhtml+xml": return .html
    case "application/ld+json", "application/json": return .json
    default: throw unsupported("Content-Type \(media)")
    }
  }

  private static func unsupported(_ sent: String) -> APIError {
    APIError(
      .unsupportedMediaType,
      "\(sent): send a page as text/html, or JSON-LD or a book export as application/ld+json")
  }

  private static func page(_ body: [UInt8], url: String?) throws(APIError) -> RecipeUpload {
    let found: [JSONValue]
    do {
      found = try RecipeExtractor.recipes(html: body, url: url)
    } catch {
      throw APIError(HTTPStatus(422), error.message)
    }
    guard !found.isEmpty else {
      throw APIError(HTTPStatus(422), "no schema.org Recipe, h-recipe or microdata found")
    }
    return .recipes(found)
  }

  private static func json(_ body: [UInt8], url: String?) throws(APIError) -> RecipeUpload {
    let value: JSONValue
    do {
      value = try JSONValue.parse(body, maxDepth: 64)
    } catch {
      throw APIError(.badRequest, "the body is not valid JSON: \(error)")
    }
    if value["playfield"] != nil { return .book(try bookEntries(value)) }
    // NB: JSON-LD goes through the same extractor as a page's, so both are normalised alike;
    // `</` is escaped so that no string can end the script element early.
    let text = value.jsonString.replacingOccurrences(of: "</", with: "<\\/")
    let page = "<html><head><script type=\"application/ld+json\">\(text)</script></head></html>"
    return try self.page(Array(page.utf8), url: url)
  }

  /// The recipes of a book export, each checked to be a named schema.org Recipe.
  private static func bookEntries(_ value: JSONValue) throws(APIError) -> [BookEntry] {
    guard value["playfield"]?.stringValue == bookFormat, value["version"]?.doubleValue == 1 else {
      throw APIError(
        .badRequest, "a book export has \"playfield\": \"\(bookFormat)\" and \"version\": 1",
        field: "playfield")
    }
    guard case .array(let items)? = value["recipes"] else {
      throw APIError(.badRequest, "a book export has a recipes array", field: "recipes")
    }
    var entries: [BookEntry] = []
    for (index, item) in items.enumerated() {
      let recipe = item["recipe"] ?? .null
      guard case .object = recipe, recipe["@type"]?.stringValue == "Recipe",
        recipe["name"]?.stringValue?.isEmpty == false
      else {
        throw APIError(
          .badRequest, "recipes[\(index)].recipe is not a schema.org Recipe with a name",
          field: "recipes")
      }
      var tags: [String] = []
      if case .array(let list)? = item["tags"] {
        tags = list.compactMap(\.stringValue)
      }
      entries.append(BookEntry(recipe: recipe, tags: tags))
    }
    return entries
  }
}
