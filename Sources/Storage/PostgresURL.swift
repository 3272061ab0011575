/// What the store itself reads of a PostgreSQL connection URL; libpq parses the rest.
public enum PostgresURL {
  /// True when `location` is a `postgresql://` (or `postgres://`) URL rather than a file path.
  public static func isPostgreSQL(_ location: String) -> Bool {
    location.hasPrefix("postgresql://") || location.hasPrefix("postgres://")
  }

  /// The URL with any password replaced by `***`, for messages and logs.
  public static func redacted(_ url: String) -> String {
    guard let scheme = url.range(of: "://") else { return url }
    var result = String(url[..<scheme.upperBound])
    let rest = url[scheme.upperBound...]
    let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
      result += authority[..<colon] + ":***" + authority[at...]
    } else {
      result += authority
    }
    var tail = String(rest[authorityEnd...])
    if let query = tail.firstIndex(of: "?") {
      let parameters = tail[tail.index(after: query)...].split(
        separator: "&", omittingEmptySubsequences: false
      )
      .map { $0.hasPrefix("password=") ? "password=***" : String($0) }
      tail = tail[...query] + parameters.joined(separator: "&")
    }
    return result + tail
  }
}
