/// Resolution of links found in a page against the page's own address.
enum PageURL {
  /// `link` made absolute against `base` (RFC 3986 §5.2 for the usual forms); unchanged when it
  /// is already absolute or there is no usable base. An absolute address glued after a bare
  /// origin ("http://a.examplehttps://b.example/x.jpg", a template's mistake) is the inner one.
  static func resolve(_ link: String, base: String?) -> String {
    let link = HTMLText.collapse(link)
    if link.contains("://") { return unglued(link) }
    if link.hasPrefix("data:") { return link }
    guard let base = base.map(absolute), let schemeEnd = base.firstRange(of: "://") else {
      return link
    }
    let scheme = base[..<schemeEnd.lowerBound]
    if link.hasPrefix("//") { return "\(scheme):\(link)" }
    let afterScheme = base[schemeEnd.upperBound...]
    let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
    let origin = base[..<hostEnd]
    if link.hasPrefix("/") { return origin + withoutDotSegments(link) }
    var path = String(base[hostEnd...])
    if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
    let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "/"
    return origin + withoutDotSegments(directory + link)
  }

  /// The absolute address inside `link` when `link` is an origin with no path followed by
  /// another absolute address; else `link`.
  private static func unglued(_ link: String) -> String {
    guard let first = link.firstRange(of: "://") else { return link }
    let rest = link[first.upperBound...]
    for scheme in ["https://", "http://"] {
      if let second = rest.firstRange(of: scheme), !rest[..<second.lowerBound].contains("/") {
        return String(rest[second.lowerBound...])
      }
    }
    return link
  }

  /// A page address given without a scheme ("example.com/a") read as a browser reads it,
  /// with http; anything else (a path alone, "/a") unchanged.
  static func absolute(_ address: String) -> String {
    let address = HTMLText.collapse(address)
    let host = address.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !address.contains("://"), host.contains("."), !host.contains(":") else { return address }
    return "http://" + address
  }

  /// A path with its `.` and `..` segments resolved (RFC 3986 §5.2.4), query kept as it is.
  private static func withoutDotSegments(_ path: String) -> String {
    let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
    let segments = path[..<end].split(separator: "/", omittingEmptySubsequences: false)
    guard segments.contains(where: { $0 == "." || $0 == ".." }) else { return path }
    var output: [Substring] = []
    for (offset, segment) in segments.enumerated() {
      let last = offset == segments.count - 1
      if segment == "." || segment == ".." {
        if segment == "..", output.count > 1 { output.removeLast() }
        if last { output.append("") }
      } else {
        output.append(segment)
      }
    }
    return output.joined(separator: "/") + path[end...]
  }
}
