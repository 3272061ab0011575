import HTTP
import Server

extension Application {
  /// The app's own routes: pages, the sessions API and sockets, the demo list, health, oEmbed.
  /// Demos add theirs (`Demo.routes`); the static files come last.
  static let appRoutes: [Route] = [
    Route([.get], "/", [.page]) { call in .response(call.app.gallery()) },
    Route([.get], "/healthz") { call in .response(call.app.health()) },
    Route([.get], "/metrics") { call in .response(call.app.metrics()) },
    Route([.get], "/oembed", [.crossOrigin]) { call in
      .response(OEmbed(demos: call.app.demos).handle(call.request))
    },
    Route([.get], "/demos/{demo}", [.page]) { (call, name: DemoName) in
      .response(call.app.demoPage(name.demo, embedded: false, request: call.request))
    },
    Route([.get], "/embed/{demo}", [.page]) { (call, name: DemoName) in
      .response(call.app.demoPage(name.demo, embedded: true, request: call.request))
    },
    Route([.get], "/sessions", [.page, .guardsState]) { call in
      .response(call.app.sessionsPage())
    },
    Route([.get], "/sessions/{session}/replay", [.page, .guardsState, .adopts]) {
      (call, id: SessionID) in
      .response(call.app.replayPage(id, request: call.request))
    },
    Route([.get], "/api/demos", [.api]) { call in .response(.json(Demo.listing(call.app.demos))) },
    Route([.get], "/api/sessions", [.api, .guardsState, .store]) { call in
      .response(call.app.sessionAPI.list())
    },
    Route([.post], "/api/sessions", [.api, .guardsState, .store]) { call in
      .response(call.app.sessionAPI.create(call.request, client: call.client))
    },
    Route([.get], "/api/sessions/{session}", [.api, .guardsState, .adopts]) {
      (call, id: SessionID) in
      .response(call.app.sessionAPI.show(id))
    },
    Route([.delete], "/api/sessions/{session}", [.api, .guardsState, .store]) {
      (call, id: SessionID) in
      .response(call.app.sessionAPI.delete(call.request, id: id))
    },
    Route([.post], "/api/sessions/{session}/links", [.api, .guardsState, .store]) {
      (call, id: SessionID) in
      .response(call.app.sessionAPI.renewLinks(call.request, id: id))
    },
    Route([.get], "/api/sessions/{session}/state", [.api, .guardsState, .adopts]) {
      (call, id: SessionID) in
      call.app.sessionAPI.state(id)
    },
    Route([.get], "/api/sessions/{session}/replay", [.api, .guardsState, .adopts]) {
      (call, id: SessionID) in
      call.app.sessionAPI.replayState(call.request, id: id, client: call.client)
    },
    Route([.get], "/api/sessions/{session}/inputs", [.api, .guardsState, .adopts]) {
      (call, id: SessionID) in
      guard let pages = call.app.inputPages else {
        return .response(
          APIError(.serviceUnavailable, "the input log needs the database").response)
      }
      return pages.respond(to: call.request, path: [id.description], client: call.client)
    },
    Route([.get], "/ws/echo") { call in echoSocket(call.request) },
    Route([.get], "/ws/sessions/{session}", [.guardsState, .adopts]) { (call, id: SessionID) in
      call.app.sessionSocket(call.request, id: id, client: call.client)
    },
    Route([.get], "/ws/batch", [.guardsState]) { call in
      call.app.batchSocket(call.request, client: call.client)
    },
    Route([.get], "/ws/replays/{session}", [.guardsState, .adopts]) { (call, id: SessionID) in
      call.app.replaySocket(call.request, id: id, client: call.client)
    },
  ]

  /// Files under `Public/`: first the host library, which other sites import as an ES module
  /// (so it needs CORS), then every other file. Only paths of files that exist match.
  static func fileRoutes(_ files: StaticFiles) -> [Route] {
    [
      Route(
        answering: [.get], "/js/{file}", [.crossOrigin], example: ["playfield-embed.js"],
        parse: { segments, request in
          guard let name = segments.first, name.hasPrefix("playfield-embed") else { return nil }
          return files.file(at: ["js", name], of: request)
        },
        respond: StaticFiles.respond(_:to:)),
      Route(
        answering: [.get], "/{path...}", example: ["css", "playfield.css"],
        parse: { segments, request in files.file(at: segments, of: request) },
        respond: StaticFiles.respond(_:to:)),
    ]
  }
}
