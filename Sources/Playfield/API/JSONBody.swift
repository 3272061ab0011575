import Foundation
import HTTP
import JSON
import WebSocket

/// A request's JSON object body, with field readers that name what is wrong.
struct JSONBody {
  let fields: [String: JSONValue]

  /// Reads the body of `request`; `example` (such as `{"kind": NAME}`) tells a client that
  /// sent nothing what to send.
  init(_ request: Request, maxBytes: Int = 64 * 1024, example: String = "a JSON object")
    throws(APIError)
  {
    guard request.declaresBody else {
      throw APIError(.lengthRequired, "send \(example) with a Content-Length")
    }
    guard Self.isJSON(request) else {
      throw APIError(
        .unsupportedMediaType, "send \(example) with Content-Type: application/json")
    }
    guard request.body.count <= maxBytes else {
      throw APIError(.contentTooLarge, "the body is larger than \(maxBytes) bytes")
    }
    guard !request.body.isEmpty else {
      throw APIError(.badRequest, "send \(example)")
    }
    let value: JSONValue
    do {
      value = try JSONValue.parse(request.body, maxDepth: 32)
    } catch {
      throw APIError(.badRequest, "the body is not valid JSON: \(error)")
    }
    guard case .object(let fields) = value else {
      throw APIError(.badRequest, "the body must be a JSON object")
    }
    self.fields = fields
  }

  /// Whether the body is declared JSON, or comes without a type from a page of this site.
  ///
  /// NB: any web page may POST a body with no type (or `text/plain`) to us without a CORS
  /// preflight (Fetch §4.2 "CORS-safelisted request-header"), so an untyped body counts only
  /// when its `Origin` is this server's; a typed one makes the browser ask first, and we
  /// refuse the preflight.
  static func isJSON(_ request: Request) -> Bool {
    guard let type = request.headers["Content-Type"] else {
      return request.headers["Origin"] != nil && OriginPolicy().allows(request)
    }
    let media = type.split(separator: ";", maxSplits: 1).first ?? ""
    return media.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
  }

  /// Refuses fields other than `names`, naming the first unknown one.
  func allowOnly(_ names: Set<String>) throws(APIError) {
    if let unknown = fields.keys.sorted().first(where: { !names.contains($0) }) {
      let known = names.sorted().joined(separator: " and ")
      throw APIError(.badRequest, "unknown field \(unknown); send \(known)", field: unknown)
    }
  }

  func string(_ name: String) throws(APIError) -> String {
    guard let value = fields[name] else {
      throw APIError(.badRequest, "\(name) is required", field: name)
    }
    guard let text = value.stringValue else {
      throw APIError(.badRequest, "\(name) must be a string", field: name)
    }
    return text
  }

  func value(_ name: String) throws(APIError) -> JSONValue {
    guard let value = fields[name] else {
      throw APIError(.badRequest, "\(name) is required", field: name)
    }
    return value
  }
}
