import Simulation
import Storage

/// The token of a model's seat (`Simulation.seats`): whoever holds it may send that seat's
/// inputs but not run, stop, step the session or send anything else.
///
/// It is derived from the stored hash of the control token, SHA-256 of `playfield-NAME:` and
/// that hash (NAME being the seat's name: `playfield-draw:` for the paintbrush's drawing
/// guests), so it needs no storage of its own, survives restarts, and cannot be turned back
/// into the control token. The server hands it to controllers in `hello` (`NAMEToken`) and in
/// the create response (`urls.NAME`). The owner may replace the links (`POST
/// /api/sessions/ID/links`): the session's seat generation goes up, older links are refused,
/// and guests connected with one are disconnected.
enum SeatToken {
  /// The token of `seat` in the session whose control token hashes to `tokenHash`, in the
  /// session's `generation` of seat links (raised each time its owner makes new links).
  static func token(for seat: Seat, tokenHash: String, generation: Int64 = 0) -> String {
    TokenHash.hash(token: preimage(seat, tokenHash, generation))
  }

  /// Every seat of `type` with its token, in the model's order.
  static func tokens(of type: any Simulation.Type, tokenHash: String, generation: Int64 = 0)
    -> [(seat: Seat, token: String)]
  {
    type.seats.map { ($0, token(for: $0, tokenHash: tokenHash, generation: generation)) }
  }

  /// The seat of a session of `type` with `tokenHash` whose token (of `generation`) `token`
  /// is, or nil: a link of an older generation is refused.
  static func seat(
    presenting token: String, type: any Simulation.Type, tokenHash: String, generation: Int64 = 0
  ) -> Seat? {
    type.seats.first {
      TokenHash.matches(token: preimage($0, tokenHash, generation), storedHash: token)
    }
  }

  /// `playfield-NAME:HASH` for the first links (as they always were), `playfield-NAME-G:HASH`
  /// for generation G.
  private static func preimage(_ seat: Seat, _ tokenHash: String, _ generation: Int64) -> String {
    "playfield-\(seat.name)" + (generation == 0 ? "" : "-\(generation)") + ":" + tokenHash
  }
}
