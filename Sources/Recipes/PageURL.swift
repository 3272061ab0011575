/// Resolution of links found in a page against the page's own address.
enum PageURL {
  /// `link` made absolute against `base` (RFC 3986 §5.2 for the usual forms); unchanged when it
  /// is already absolute or there is no usable base.
  static func resolve(_ link: String, base: String?) -> String {
    let link = HTMLText.collapse(link)
    if link.contains("://") || link.hasPrefix("data:") { return link }
    guard let base, let schemeEnd = base.firstRange(of: "://") else { return link }
    let scheme = base[..<schemeEnd.lowerBound]
    if link.hasPrefix("//") { return "\(scheme):\(link)" }
    let afterScheme = base[schemeEnd.upperBound...]
    let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
    let origin = base[..<hostEnd]
    if link.hasPrefix("/") { return origin + link }
    var path = String(base[hostEnd...])
    if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
    let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "/"
    return origin + directory + link
  }
}
