import HTTP
import JSON

/// An API failure that becomes a JSON response: `{"error": message, "field": name}`.
struct APIError: Error, Sendable {
  var status: HTTPStatus
  var message: String
  /// The request field to blame, if any.
  var field: String?
  var headers: HTTPHeaders = HTTPHeaders()

  init(_ status: HTTPStatus, _ message: String, field: String? = nil) {
    self.status = status
    self.message = message
    self.field = field
  }

  var response: Response {
    var object: [String: JSONValue] = [
      "error": .string(message), "status": .number(Double(status.code)),
    ]
    if let field { object["field"] = .string(field) }
    var response = Response.json(JSONValue.object(object), status: status)
    for header in headers { response.headers.set(header.name, header.value) }
    return response
  }
}

extension Response {
  /// A JSON response.
  static func json(_ value: JSONValue, status: HTTPStatus = .ok) -> Response {
    var body = value.serialized()
    body.append(0x0A)
    return Response(
      status: status,
      headers: [
        "Content-Type": "application/json", "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      ],
      body: body)
  }
}
