import JSON
import Simulation

extension Simulation {
  /// The normalized JSON of a message, as the session logs it; nil for a type the model does
  /// not take.
  static func normalized(_ message: JSONValue) throws(SimulationError) -> JSONValue? {
    try checkedInput(from: message)?.json
  }
}
