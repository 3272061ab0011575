/// What the pipeline does around a route's handler, declared with the route.
struct RouteTraits: OptionSet, Sendable {
  let rawValue: Int

  /// Reads or changes the server's state (sessions, their sockets, replays, scores, mazes), so
  /// only a `Host` we answer to may reach it (`HostPolicy`, 421).
  ///
  /// NB: DNS rebinding lets a page on another site talk to us as its own origin; what it could
  /// gain is the state behind these routes. Static files, demo pages, tiles and spheres are
  /// public and already loadable from any site (an `<img>` or `<script>` needs no rebinding),
  /// so they answer any `Host`, as the servers people trust do for static content.
  static let guardsState = RouteTraits(rawValue: 1 << 0)
  /// Any site may read it (`Access-Control-Allow-Origin: *`, and CORS preflights answered).
  static let crossOrigin = RouteTraits(rawValue: 1 << 1)
  /// A rendered page: an ETag with conditional requests honoured, and a client family cookie
  /// for a browser without one (`ClientCookie`).
  static let page = RouteTraits(rawValue: 1 << 2)
  /// An API: errors, 405 included, are JSON (`APIError`) rather than text.
  static let api = RouteTraits(rawValue: 1 << 3)
  /// Reads or writes the store (a maze, a score, a session's row): with a database, the
  /// handler runs on a store worker (`StoreCalls`), charged to the client, never on an event
  /// loop, where a stalled database would hold up every connection of the loop.
  static let store = RouteTraits(rawValue: 1 << 4)
  /// Names a session (`Application.sessionID(in:)`) that it brings back from the store when it
  /// is not live here (parked, or on a shared store held by no one): then, and only then, the
  /// handler runs on a store worker as for `store`, and a session another process holds is
  /// answered 503 with `Playfield-Held-By` (`Application.sessionNotHere`).
  static let adopts = RouteTraits(rawValue: 1 << 5)

  /// How the route's errors are written.
  var errorStyle: ErrorStyle { contains(.api) ? .json : .text }
}
