import HTTP
import Server

/// What a route's handler gets: the request (a HEAD arrives as the GET it stands for), its
/// connection, and the app, for what every handler may need.
struct RouteCall {
  let request: Request
  let context: RequestContext
  let app: Application

  /// Who the request counts against: its address, with its browser family when known (looked
  /// up only when a handler asks, not for every static file).
  var client: ClientKey { app.client(request, context) }
}
