import Foundation
import JSON
import Recipes

// recipe-import FILE [URL]: prints the first recipe of an HTML file as schema.org JSON, for
// the dev-set scorer (`score.py --cmd '.build/release/recipe-import {html} {url}'`) and
// benchmarks. With --raw first, prints the first recipe as found, before normalising.
var arguments = Array(CommandLine.arguments.dropFirst())
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
