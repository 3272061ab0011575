import Foundation
import JSON
import Recipes

// recipe-import FILE [URL]: prints the first recipe of an HTML file as schema.org JSON, for
// the dev-set scorer (`score.py --cmd '.build/release/recipe-import {html} {url}'`) and
// benchmarks. With --raw first, prints the first recipe as found, before normalising; with
// --time FILE..., the CPU per page of parse + extract.
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--time" {
  // recipe-import --time FILE...: CPU per page of parse + extract (best of 5 runs each), then
  // the median and the largest over the pages.
  var perPage: [Double] = []
  for path in arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path) else { continue }
    let bytes = Array(data)
    var best = Double.infinity
    for _ in 0..<5 {
      let start = processCPUMilliseconds()
      _ = try? RecipeExtractor.recipes(html: bytes, url: "https://example.com/")
      best = min(best, processCPUMilliseconds() - start)
    }
    perPage.append(best)
  }
  perPage.sort()
  guard !perPage.isEmpty else { exit(2) }
  let median = perPage[perPage.count / 2]
  print(
    "pages \(perPage.count): median \(String(format: "%.2f", median)) ms CPU, max "
      + "\(String(format: "%.2f", perPage.last!)) ms")
  exit(0)
}
let raw = arguments.first == "--raw"
if raw { arguments.removeFirst() }
guard let path = arguments.first,
  let data = FileManager.default.contents(atPath: path)
else {
  FileHandle.standardError.write(Data("usage: recipe-import FILE.html [URL]\n".utf8))
  exit(2)
}
let url = arguments.count > 1 ? arguments[1] : nil
if raw {
  print(RecipeExtractor.rawRecipes(html: Array(data)).first?.jsonString ?? "{}")
  exit(0)
}
do {
  let recipes = try RecipeExtractor.recipes(html: Array(data), url: url)
  print(recipes[0].jsonString)
} catch {
  FileHandle.standardError.write(Data("recipe-import: \(error.message)\n".utf8))
  exit(1)
}

func processCPUMilliseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1_000 + Double(time.tv_nsec) / 1_000_000
}
