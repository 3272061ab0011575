/// One picture a page offers for its recipe, and the rule that picks among them: the largest
/// the page states (a width and height given beside it, one side of a square, or a size written
/// in its address, `1200x800` or `?w=1200&h=800`); on a tie, the recipe's first image, then its
/// others, then the page's share images (Open Graph, Twitter card); then an https address; then
/// the first in page order. A logo or icon loses to any other picture. The same address offered
/// twice is one candidate with the larger sizes and the higher rank of the two.
struct ImageCandidate: Sendable {
  /// The recipe's own first image.
  static let first = 3
  /// The recipe's other images.
  static let own = 2
  /// A share image of the page (`og:image`, `twitter:image`).
  static let share = 1

  var url: String
  var width: Int?
  var height: Int?
  /// `first`, `own` or `share`.
  var rank: Int

  /// The chosen address, made absolute against `base`; nil when no candidate has an http(s)
  /// address.
  static func best(_ candidates: [ImageCandidate], base: String?) -> String? {
    var merged: [ImageCandidate] = []
    var index: [String: Int] = [:]
    for candidate in candidates.prefix(1_000) {
      guard let url = absolute(candidate.url, base: base) else { continue }
      if let at = index[url] {
        merged[at].width = larger(merged[at].width, candidate.width)
        merged[at].height = larger(merged[at].height, candidate.height)
        merged[at].rank = max(merged[at].rank, candidate.rank)
      } else {
        index[url] = merged.count
        var copy = candidate
        copy.url = url
        merged.append(copy)
      }
    }
    var best: (url: String, score: [Int])?
    for (order, candidate) in merged.enumerated() {
      let score = candidate.score(order: order)
      if best.map({ $0.score.lexicographicallyPrecedes(score) }) ?? true {
        best = (candidate.url, score)
      }
    }
    return best?.url
  }

  /// Area, rank, https, earlier: larger is better, compared in that order.
  private func score(order: Int) -> [Int] {
    if Self.isJunk(url) { return [-1, 0, 0, -order] }
    var side = (width, height)
    if side.0 == nil || side.1 == nil, let stated = Self.sizeInAddress(url) {
      side = (side.0 ?? stated.width, side.1 ?? stated.height)
    }
    let area: Int
    switch side {
    case (let width?, let height?): area = width * height
    case (let one?, nil), (nil, let one?): area = one * one
    default: area = 0
    }
    return [area, rank, url.hasPrefix("https://") ? 1 : 0, -order]
  }

  /// An http(s) address with a host, or nil (data: links, other schemes, nothing to resolve
  /// against).
  private static func absolute(_ link: String, base: String?) -> String? {
    let trimmed = HTMLText.collapse(link)
    guard !trimmed.isEmpty, !trimmed.hasPrefix("data:") else { return nil }
    let url = trimmed.hasPrefix("//") ? "https:" + trimmed : PageURL.resolve(trimmed, base: base)
    for scheme in ["http://", "https://"] where url.lowercased().hasPrefix(scheme) {
      let host = url.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
      return host.isEmpty ? nil : url
    }
    return nil
  }

  private static func larger(_ first: Int?, _ second: Int?) -> Int? {
    guard let first, let second else { return first ?? second }
    return max(first, second)
  }

  /// A logo, favicon or icon by its path (`/logo.png`, `site-icon-192.png`, `/icons/…`).
  static func isJunk(_ url: String) -> Bool {
    var path = Substring(url)
    if let scheme = path.firstRange(of: "://") {
      path = path[scheme.upperBound...]
      path = path[(path.firstIndex(of: "/") ?? path.endIndex)...]
    }
    if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<query] }
    let lower = path.lowercased()
    let words = lower.split(whereSeparator: { "/.-".contains($0) })
    return words.contains { ["favicon", "logo", "icon"].contains($0) }
      || lower.contains("apple-touch-icon")
  }

  /// Width and height written in an address: the first `NNNxNNN` (3 to 5 digits each), else
  /// `w=`/`width=` and `h=`/`height=` in its query.
  static func sizeInAddress(_ url: String) -> (width: Int, height: Int)? {
    let chars = Array(url.utf8)
    var start = 0
    while start < chars.count {
      guard isDigit(chars[start]) else {
        start += 1
        continue
      }
      var end = start
      while end < chars.count, isDigit(chars[end]) { end += 1 }
      if (3...5).contains(end - start), end < chars.count, chars[end] | 0x20 == UInt8(ascii: "x") {
        var after = end + 1
        while after < chars.count, isDigit(chars[after]) { after += 1 }
        if (3...5).contains(after - end - 1) {
          return (number(chars[start..<end]), number(chars[(end + 1)..<after]))
        }
      }
      start = end
    }
    guard let width = queryNumber(chars, keys: ["w", "width"]),
      let height = queryNumber(chars, keys: ["h", "height"])
    else { return nil }
    return (width, height)
  }

  /// The first `?key=` or `&key=` in an address followed by at least 3 digits (up to 5 read).
  private static func queryNumber(_ chars: [UInt8], keys: [String]) -> Int? {
    var at = 0
    while at < chars.count {
      if chars[at] == UInt8(ascii: "?") || chars[at] == UInt8(ascii: "&") {
        for key in keys {
          let name = Array((key + "=").utf8)
          let from = at + 1
          guard from + name.count <= chars.count,
            zip(chars[from..<(from + name.count)], name).allSatisfy({ $0 | 0x20 == $1 })
          else { continue }
          var end = from + name.count
          while end < chars.count, end - from - name.count < 5, isDigit(chars[end]) { end += 1 }
          if end - from - name.count >= 3 { return number(chars[(from + name.count)..<end]) }
        }
      }
      at += 1
    }
    return nil
  }

  private static func isDigit(_ char: UInt8) -> Bool {
    char >= UInt8(ascii: "0") && char <= UInt8(ascii: "9")
  }

  private static func number(_ digits: ArraySlice<UInt8>) -> Int {
    digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
  }
}
