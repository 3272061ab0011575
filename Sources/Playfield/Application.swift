import Deflate
import HTTP
import Logging
import Server

/// The Playfield web app: every route, wired to the pieces in `Environment`.
public final class Application: HTTPHandler {
  let environment: Environment
  let files: StaticFiles
  let pages: Pages
  let demos: [Demo]

  public init(environment: Environment) throws {
    self.environment = environment
    self.files = StaticFiles(root: environment.publicDirectory, gzip: { try? Gzip.compress($0) })
    self.pages = try Pages(directory: environment.templatesDirectory)
    self.demos = []
  }

  public func handle(_ request: Request, context: RequestContext) -> Reply {
    if request.target == "*" {
      return .response(Response(status: .noContent, headers: ["Allow": Self.allMethods]))
    }
    let segments: [String]
    do {
      segments = try URLPath.segments(request.path)
    } catch {
      return .response(error.response)
    }
    let route = Route(segments: segments)
    switch route {
    case .gallery:
      return page(request) { gallery() }
    case .health:
      return readOnly(request) {
        Response(
          contentType: "application/json",
          body: "{\"status\":\"ok\",\"connections\":0}")
      }
    case .demo(let name), .embed(let name):
      guard let demo = demos.first(where: { $0.name == name }) else {
        return .response(notFound(request))
      }
      let embedded = route == .embed(name)
      return page(request) {
        pages.render(
          "demos/\(demo.name)", demoContext(demo, embedded: embedded),
          framing: embedded ? .anyone : .sameOrigin)
      }
    case .file(let segments):
      if let response = files.response(for: segments, request: request) {
        return .response(response)
      }
      return .response(notFound(request))
    }
  }

  /// Finishes background work (storage writes, sessions) before the process exits.
  public func shutdown() {}

  static let allMethods = "GET, HEAD, POST, DELETE, OPTIONS"

  // MARK: Pages

  private func gallery() -> Response {
    pages.render(
      "gallery",
      [
        "title": "Playfield",
        "demos": demos.map { ["name": $0.name, "title": $0.title, "summary": $0.summary, "seed": $0.seed] },
        "hasDemos": !demos.isEmpty,
      ])
  }

  private func demoContext(_ demo: Demo, embedded: Bool) -> [String: Any] {
    ["title": demo.title, "name": demo.name, "summary": demo.summary, "embedded": embedded]
  }

  private func notFound(_ request: Request) -> Response {
    let wantsHTML = request.headers["Accept"].map { $0.contains("text/html") } ?? false
    guard wantsHTML, request.method == .get || request.method == .head else {
      return HTTPError(.notFound, "nothing at \(request.path)").response
    }
    return pages.render(
      "not-found",
      [
        "title": "Not found",
        "path": String(request.path),
        "demos": demos.map { ["name": $0.name, "title": $0.title] },
      ], status: .notFound)
  }

  /// Answers GET and HEAD with `make()`, anything else with 405.
  private func readOnly(_ request: Request, _ make: () -> Response) -> Reply {
    guard request.method == .get || request.method == .head else {
      return .response(
        HTTPError(.methodNotAllowed, "this page accepts GET and HEAD", headers: ["Allow": "GET, HEAD"])
          .response)
    }
    return .response(make())
  }

  /// A rendered page: GET and HEAD only, with an ETag and conditional requests honoured.
  private func page(_ request: Request, _ make: () -> Response) -> Reply {
    readOnly(request) { Preconditions.validate(make(), for: request) }
  }
}
