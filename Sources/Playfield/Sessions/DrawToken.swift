import Simulation
import Storage

/// The "draw too" token of a shared canvas: whoever holds it may paint (`Paintbrush`'s guest
/// inputs) but not run, stop, step or clear the session.
///
/// It is derived from the stored hash of the control token, SHA-256 of `playfield-draw:` and
/// that hash, so it needs no storage of its own, survives restarts, and cannot be turned back
/// into the control token. The server hands it to controllers in `hello` (`drawToken`) and in
/// the create response (`urls.draw`).
enum DrawToken {
  /// The inputs a drawing guest may send for sessions of `type`; empty when it has no guests.
  static func guestInputs(for type: any Simulation.Type) -> Set<String> {
    type == Paintbrush.self ? Paintbrush.guestInputTypes : []
  }

  /// The drawing token of the session whose control token hashes to `tokenHash`.
  static func token(tokenHash: String) -> String {
    TokenHash.hash(token: "playfield-draw:" + tokenHash)
  }

  /// True when `token` is the drawing token of a session of `type` with `tokenHash`.
  static func matches(_ token: String, type: any Simulation.Type, tokenHash: String) -> Bool {
    !guestInputs(for: type).isEmpty
      && TokenHash.matches(token: "playfield-draw:" + tokenHash, storedHash: token)
  }
}
