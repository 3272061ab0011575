import JSON
import Testing

@testable import Simulation

/// Inputs kept typed from the socket to `step` must give the states the logged JSON gives.
@Suite struct CheckedInputTests {
  @Test("typed inputs and their logged JSON step to the same state", arguments: Scenario.all)
  func typedInputsMatchTheLog(_ scenario: Scenario) throws {
    var fromJSON = try scenario.start()
    var fromChecked = try scenario.start()
    for tick in 1...400 {
      let messages = scenario.inputs(tick)
      let checked = try messages.compactMap { try scenario.type.checkedInput(from: $0) }
      #expect(checked.map(\.json) == messages.compactMap { try? scenario.type.normalized($0) })
      _ = fromJSON.step(parsing: checked.map(\.json))
      _ = fromChecked.step(checked: checked)
    }
    #expect(fromChecked.stateHash == fromJSON.stateHash)
  }

  @Test func aDamagedLogEntryIsRejectedAndChangesNothing() throws {
    var model = try MazeBall(config: [:], seed: 1)
    var untouched = model
    let bad: JSONValue = ["type": "tilt", "x": 9]
    let events = model.step(checked: [MazeBall.loggedInput(bad)])
    #expect(events.map(\.name) == ["input-rejected"])
    #expect(events.first?.fields["reason"]?.stringValue?.contains("x") == true)
    _ = untouched.step(checked: [])
    #expect(model.stateHash == untouched.stateHash)
  }

  @Test func anotherModelsInputIsRejected() throws {
    var model = try MazeBall(config: [:], seed: 1)
    let tilt = try #require(try Holes.checkedInput(from: ["type": "tilt", "x": 0, "y": 1]))
    let events = model.step(checked: [tilt])
    #expect(events.map(\.name) == ["input-rejected"])
  }
}
