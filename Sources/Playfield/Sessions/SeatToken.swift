import Simulation
import Storage

/// The token of a model's seat (`Simulation.seats`): whoever holds it may send that seat's
/// inputs but not run, stop, step the session or send anything else.
///
/// It is derived from the stored hash of the control token, SHA-256 of `playfield-NAME:` and
/// that hash (NAME being the seat's name: `playfield-draw:` for the paintbrush's drawing
/// guests), so it needs no storage of its own, survives restarts, and cannot be turned back
/// into the control token. The server hands it to controllers in `hello` (`NAMEToken`) and in
/// the create response (`urls.NAME`).
enum SeatToken {
  /// The token of `seat` in the session whose control token hashes to `tokenHash`.
  static func token(for seat: Seat, tokenHash: String) -> String {
    TokenHash.hash(token: preimage(seat, tokenHash))
  }

  /// Every seat of `type` with its token, in the model's order.
  static func tokens(of type: any Simulation.Type, tokenHash: String) -> [(
    seat: Seat, token: String
  )] {
    type.seats.map { ($0, token(for: $0, tokenHash: tokenHash)) }
  }

  /// The seat of a session of `type` with `tokenHash` whose token `token` is, or nil.
  static func seat(presenting token: String, type: any Simulation.Type, tokenHash: String)
    -> Seat?
  {
    type.seats.first { TokenHash.matches(token: preimage($0, tokenHash), storedHash: token) }
  }

  private static func preimage(_ seat: Seat, _ tokenHash: String) -> String {
    "playfield-\(seat.name):" + tokenHash
  }
}
