/// Who sent an input, as the server knows it from the token the connection presented, never as
/// the message says. Models whose rules depend on it (whose turn it is, whose stroke to undo)
/// read it from their typed input, where `ModelInput.sent(by:)` stamped it.
public enum Sender: Sendable, Hashable {
  /// The holder of the control token.
  case controller
  /// The holder of the token of the seat with this name (`Seat.name`).
  case guest(String)

  /// `"controller"` or the seat's name, as a model may log it.
  public var name: String {
    switch self {
    case .controller: "controller"
    case .guest(let seat): seat
    }
  }
}
