import ArgumentParser
import Playfield

/// `playfield demos`: every demo this build serves, as `GET /api/demos` lists them, for
/// scripts and tests that need the list before a server runs.
struct Demos: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print every demo as JSON, as GET /api/demos answers.")

  func run() {
    print(DemoRegistry.listing.description)
  }
}
