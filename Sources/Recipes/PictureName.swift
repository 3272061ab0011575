/// What an image URL says about its picture: a name for the picture whatever size or crop the
/// URL asks for, and the size it asks for when it says so (`crop-960x540`, `650_1200.jpg`,
/// `/600/315/`, WordPress's `-500x500`).
enum PictureName {
  /// The file name without its extension and sizes, lowercased; the folder's name when that
  /// leaves nothing (`…/salmorejo/650_1200.jpg` → `salmorejo`).
  static func key(_ url: String) -> String {
    var segments = path(url).split(separator: "/").map(String.init)
    if let last = segments.last, let dot = last.lastIndex(of: ".") {
      segments[segments.count - 1] = String(last[..<dot])
    }
    while let last = segments.popLast() {
      let name = withoutSizes(last.lowercased())
      if !name.isEmpty { return name }
    }
    return ""
  }

  /// Width × height the URL's path asks for, when it names both (a query's sizes are not
  /// read: they are as often a crop's focus or another URL's).
  static func area(_ url: String) -> Double? {
    let text = String(path(url))
    let runs = numberRuns(text)
    for (first, second) in zip(runs, runs.dropFirst()) {
      let between = text[first.range.upperBound..<second.range.lowerBound]
      if between.count == 1, "xX_,×/".contains(between.first!) {
        return first.value * second.value
      }
    }
    return nil
  }

  private static func path(_ url: String) -> Substring {
    var rest = Substring(url)
    if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
    if let slash = rest.firstIndex(of: "/") { rest = rest[slash...] } else { return "" }
    if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
    return rest
  }

  /// `name` without `WxH` and `W_H` runs and the separators around them.
  private static func withoutSizes(_ name: String) -> String {
    var result = name
    let runs = numberRuns(name)
    var cuts: [Range<String.Index>] = []
    for (first, second) in zip(runs, runs.dropFirst()) {
      let between = name[first.range.upperBound..<second.range.lowerBound]
      if between.count == 1, "x_×".contains(between.first!) {
        cuts.append(first.range.lowerBound..<second.range.upperBound)
      }
    }
    for cut in cuts.reversed() { result.removeSubrange(cut) }
    let separators: Set<Character> = ["-", "_", " "]
    while let last = result.last, separators.contains(last) { result.removeLast() }
    while let first = result.first, separators.contains(first) { result.removeFirst() }
    return result
  }

  /// Runs of 2 to 5 digits in `text`, with their values.
  private static func numberRuns(_ text: String) -> [(range: Range<String.Index>, value: Double)] {
    var runs: [(Range<String.Index>, Double)] = []
    var index = text.startIndex
    while index < text.endIndex {
      guard text[index].isASCII, text[index].isNumber else {
        index = text.index(after: index)
        continue
      }
      let start = index
      while index < text.endIndex, text[index].isASCII, text[index].isNumber {
        index = text.index(after: index)
      }
      let digits = text[start..<index]
      if (2...5).contains(digits.count), let value = Double(digits) {
        runs.append((start..<index, value))
      }
    }
    return runs
  }
}
