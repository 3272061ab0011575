import Foundation
import Simulation
import Testing

@testable import Playfield

/// `Demo.all` is the one list of demos: it must agree with the models and the files.
@Suite struct DemoListTests {
  /// The repository root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test func namesAreUniqueAndURLSafe() {
    let names = Demo.all.map(\.name)
    #expect(Set(names).count == names.count)
    for name in names {
      #expect(!name.isEmpty && name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" })
    }
  }

  /// A session demo's name is its model's kind, and a model serves one demo: the lists read
  /// from the registry (`DemoRegistry.models`, `Demo.sessionKinds`) then name each model once.
  @Test func everyModelIsOneSessionDemoAndNoOtherDemoIsASession() {
    var sessionNames: [String] = []
    for demo in Demo.all {
      guard let model = demo.model else {
        #expect(DemoRegistry.model(named: demo.name) == nil, "\(demo.name) is a page")
        continue
      }
      #expect(model.kind == demo.name)
      let registered = DemoRegistry.model(named: demo.name).map(ObjectIdentifier.init)
      #expect(registered == ObjectIdentifier(model))
      sessionNames.append(demo.name)
    }
    let models = DemoRegistry.models.map(ObjectIdentifier.init)
    #expect(Set(models).count == models.count)
    #expect(DemoRegistry.models.map { $0.kind } == sessionNames)
    #expect(Demo.sessionKinds == sessionNames)
  }

  @Test func everyShowcaseStartsAsItsModelAccepts() throws {
    for demo in Demo.all {
      guard let model = demo.model else {
        #expect(demo.showcase.inputs.isEmpty, "\(demo.name): a page has no session to show")
        continue
      }
      var session = try model.init(config: demo.showcase.config, seed: 1)
      for input in demo.showcase.inputs {
        #expect(try model.checkedInput(from: input) != nil, "\(demo.name): \(input)")
      }
      let events = session.step(parsing: demo.showcase.inputs)
      #expect(!events.contains { $0.name == "input-rejected" }, "\(demo.name)")
    }
  }

  @Test func everyFrameIsAtLeast240By180() {
    for demo in Demo.all {
      #expect(demo.frame.width >= 240 && demo.frame.height >= 180, "\(demo.name)")
    }
  }

  /// The app layer outside `Demos/` names no demo: not its kind, name or model type.
  @Test func onlyTheDemosFolderNamesADemo() throws {
    let sources = Self.root.appendingPathComponent("Sources/Playfield")
    let files = try #require(FileManager.default.enumerator(atPath: sources.path))
      .compactMap { $0 as? String }
      .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Demos/") }
    #expect(files.count > 50)
    let names = Demo.all.map { "\"\($0.name)\"" }
    let types = Demo.all.compactMap(\.model).map { "\\b\($0)\\b" }
    for file in files {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for name in names { #expect(!text.contains(name), "\(file) names \(name)") }
      for type in types {
        #expect(text.range(of: type, options: .regularExpression) == nil, "\(file): \(type)")
      }
    }
  }

  @Test func everyDemoHasTextATemplateAndAScript() {
    for demo in Demo.all {
      #expect(!demo.title.isEmpty && !demo.summary.isEmpty && !demo.seed.isEmpty)
      let template = Self.root.appendingPathComponent("Templates/demos/\(demo.name).mustache")
      let script = Self.root.appendingPathComponent("Public/js/demos/\(demo.name).js")
      #expect(FileManager.default.fileExists(atPath: template.path), "\(template.path)")
      #expect(FileManager.default.fileExists(atPath: script.path), "\(script.path)")
    }
  }

  @Test func lookupsFallBackToTheName() {
    #expect(Demo.named("maze")?.title == MazeBall.title)
    #expect(Demo.named("nope") == nil)
    #expect(Demo.title(of: "nope") == "nope")
  }
}
