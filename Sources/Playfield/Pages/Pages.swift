import HTTP
import Logging
import Mustache

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Server-rendered pages: Mustache templates from `Templates/`, wrapped in HTML headers.
final class Pages: Sendable {
  let library: MustacheLibrary

  /// Loads every `.mustache` file under `directory`, named by its path without the extension.
  init(directory: String) throws {
    var library = MustacheLibrary()
    for name in try Self.templateNames(in: directory) {
      let path = directory + "/" + name + ".mustache"
      guard let text = StaticFiles.read(path, size: Self.fileSize(path)) else {
        throw PagesError(message: "cannot read template \(path)")
      }
      do {
        try library.register(String(decoding: text, as: UTF8.self), named: name)
      } catch {
        throw PagesError(message: "template \(path) does not parse: \(error)")
      }
    }
    self.library = library
  }

  /// Whether a template of this name exists.
  func has(_ template: String) -> Bool { library.getTemplate(named: template) != nil }

  /// Renders `template` to HTML text, for use inside another page.
  func fragment(_ template: String, _ context: [String: Any]) -> String? {
    library.render(context, withTemplate: template)
  }

  /// Renders `template` with `context` into an HTML response with the security headers.
  func render(
    _ template: String, _ context: [String: Any], status: HTTPStatus = .ok,
    framing: SecurityHeaders.Framing = .sameOrigin
  ) -> Response {
    guard let html = library.render(context, withTemplate: template) else {
      return HTTPError(.internalServerError, "the page template \(template) is missing").response
    }
    var headers: HTTPHeaders = [
      "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache",
    ]
    SecurityHeaders.add(to: &headers, framing: framing)
    return Response(status: status, headers: headers, body: Array(html.utf8))
  }

  private static func templateNames(in directory: String) throws -> [String] {
    guard let files = filesBelow(directory) else {
      throw PagesError(message: "cannot open the templates folder \(directory)")
    }
    return files.filter { $0.hasSuffix(".mustache") }.map { String($0.dropLast(".mustache".count)) }
      .sorted()
  }

  private static func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
  }
}

/// A template folder that cannot be loaded.
struct PagesError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
