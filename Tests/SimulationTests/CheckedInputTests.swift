import JSON
import Testing

@testable import Simulation

/// Inputs kept typed from the socket to `step` must give the states the logged JSON gives.
@Suite struct CheckedInputTests {
  @Test("typed and JSON inputs step to the same state", arguments: Scenario.all)
  func typedInputsMatchTheLog(_ scenario: Scenario) throws {
    var fromJSON = try scenario.start()
    var fromChecked = try scenario.start()
    for tick in 1...400 {
      let messages = scenario.inputs(tick)
      let checked = try messages.compactMap { try scenario.type.checkedInput(from: $0) }
      #expect(checked.map(\.json) == messages.compactMap { try? scenario.type.input(from: $0) })
      _ = fromJSON.step(inputs: messages)
      _ = fromChecked.step(checked: checked)
    }
    #expect(fromChecked.stateHash == fromJSON.stateHash)
  }

  @Test func aDamagedLogEntryIsRejectedOnEitherPath() throws {
    var model = try MazeBall(config: [:], seed: 1)
    let bad: JSONValue = ["type": "tilt", "x": 9]
    let events = model.step(checked: [CheckedInput(json: bad, value: bad)])
    #expect(events.map(\.name) == ["input-rejected"])
  }
}
