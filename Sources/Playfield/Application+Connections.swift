import HTTP
import Server

extension Application {
  /// 503, closing the connection, when `request` names a client family (the
  /// `playfield_client` cookie) that holds its share of its address's connections already
  /// (`--connections-per-family`); nil to go on. A connection is counted for the first family
  /// a request on it names; one that names none counts only against its address.
  func familyConnectionRefusal(_ request: Request, _ context: RequestContext) -> Response? {
    guard let claim = context.claimConnection, ClientCookie.id(in: request) != nil,
      let family = client(request, context).family, !claim(family)
    else { return nil }
    return HTTPError(
      .serviceUnavailable,
      "too many connections from your browser on this address; close some tabs and try again",
      headers: ["Connection": "close", "Retry-After": "5", "Cache-Control": "no-store"]
    ).response
  }
}
