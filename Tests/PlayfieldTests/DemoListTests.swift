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

  @Test func everyModelIsOneSessionDemoAndNoOtherDemoIsASession() {
    var sessionNames: [String] = []
    for demo in Demo.all {
      guard case .session(let model) = demo.kind else { continue }
      #expect(model.kind == demo.name)
      #expect(Simulations.named(demo.name).map(ObjectIdentifier.init) == ObjectIdentifier(model))
      sessionNames.append(demo.name)
    }
    #expect(sessionNames.sorted() == Simulations.all.map { $0.kind }.sorted())
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
