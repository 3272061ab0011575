import Foundation
import JSON
import Recipes
import Testing

/// The 40 real pages of ../shared/bench/recipes/cases (never copied into the repository),
/// scored with the headline rules of ../shared/bench/recipes/score.py: title, ingredients and
/// instructions exactly (whitespace and entities normalised), total time in minutes, yields
/// and image as equal text.
@Suite("Recipe dev set")
struct DevSetTests {
  /// Fields passed when this floor was set (score.py reports the same count); a change that
  /// passes fewer fails here.
  static let floor = 231

  static let cases: URL? = {
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let folder = root.deletingLastPathComponent().appendingPathComponent(
      "shared/bench/recipes/cases")
    return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
  }()

  @Test(
    "the extractor passes at least the recorded number of fields",
    .enabled(if: cases != nil, "../shared/bench/recipes/cases is absent: dev set not scored"))
  func score() throws {
    let folder = try #require(Self.cases)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    #expect(names.count == 40)
    var passed = 0
    var failures: [String] = []
    for name in names {
      let expected = try JSONValue.parse(
        Array(try Data(contentsOf: folder.appendingPathComponent("\(name).json"))))
      let html = Array(try Data(contentsOf: folder.appendingPathComponent("\(name).html")))
      let url = expected["canonical_url"]?.stringValue ?? "https://\(name.prefix { $0 != "_" })/"
      let got = (try? RecipeExtractor.recipes(html: html, url: url).first) ?? .object([:])
      for (field, ok) in Self.fields(expected: expected, got: got) {
        if ok { passed += 1 } else { failures.append("\(name): \(field)") }
      }
    }
    #expect(passed >= Self.floor, "passed \(passed); failed: \(failures)")
  }

  static func fields(expected: JSONValue, got: JSONValue) -> [(String, Bool)] {
    var result: [(String, Bool)] = []
    if let title = expected["title"] {
      result.append(("title", norm(title) == norm(got["name"])))
    }
    if let ingredients = expected["ingredients"] {
      result.append(("ingredients", list(ingredients) == list(got["recipeIngredient"])))
    }
    if let steps = expected["instructions_list"] {
      result.append(("instructions", list(steps) == instructionLines(got["recipeInstructions"])))
    }
    if let minutes = expected["total_time"] {
      let got = got["totalTime"]?.stringValue.flatMap(isoMinutes)
      result.append(("total_time", minutes.intValue != nil && minutes.intValue == got))
    }
    if let yields = expected["yields"] {
      let got = norm(got["recipeYield"]).lowercased()
      result.append(("yields", !got.isEmpty && norm(yields).lowercased() == got))
    }
    if let image = expected["image"] {
      let got = norm(got["image"])
      result.append(("image", !got.isEmpty && norm(image) == got))
    }
    return result
  }

  private static func norm(_ value: JSONValue?) -> String {
    guard let value else { return "" }
    let text: String
    switch value {
    case .string(let string): text = string
    case .number(let number): text = String(Int(number))
    default: return ""
    }
    return HTMLTextForTests.normalise(text)
  }

  private static func list(_ value: JSONValue?) -> [String] {
    let items: [String]
    if let string = value?.stringValue {
      items = string.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    } else {
      items = value?.arrayValue?.map { norm($0) } ?? []
    }
    return items.map { HTMLTextForTests.normalise($0) }.filter { !$0.isEmpty }
  }

  private static func instructionLines(_ value: JSONValue?) -> [String] {
    RecipePages.lines(value).map { HTMLTextForTests.normalise($0) }.filter { !$0.isEmpty }
  }

  /// Minutes of the extractor's own ISO output ("PT1H30M", "PT24H15M").
  private static func isoMinutes(_ text: String) -> Int? {
    var total = 0
    var number = 0
    for character in text.dropFirst(2) {
      if let digit = character.wholeNumberValue {
        number = number * 10 + digit
      } else if character == "H" {
        total += number * 60
        number = 0
      } else if character == "M" {
        total += number
        number = 0
      } else {
        return nil
      }
    }
    return total
  }
}
