import HTTP
import JSON

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
    if let type = request.headers["Content-Type"], !type.lowercased().hasPrefix("application/json")
    {
      throw APIError(.unsupportedMediaType, "send \(example) as application/json")
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
