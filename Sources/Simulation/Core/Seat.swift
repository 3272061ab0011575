/// A place at a session for someone who holds a guest token rather than the control token:
/// what it is called and which inputs its holders may send (the rest need the control token).
///
/// The server derives each seat's token from the stored hash of the control token and the
/// seat's name, so seats need no storage and survive restarts.
public struct Seat: Sendable, Hashable {
  /// The seat's name, e.g. `"draw"`: its token is derived from it, and the API shows the
  /// token as `urls.NAME` and, to controllers, `hello`'s `NAMEToken`.
  public let name: String
  /// What `hello`'s `role` calls a connection in this seat, e.g. `"drawer"`.
  public let role: String
  /// What people call its token, as in "the drawing token".
  public let label: String
  /// The input types a connection in this seat may send.
  public let inputs: Set<String>

  public init(name: String, role: String, label: String, inputs: Set<String>) {
    self.name = name
    self.role = role
    self.label = label
    self.inputs = inputs
  }
}
