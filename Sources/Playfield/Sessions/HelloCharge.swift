/// What `HelloWork.charge` counted for one hello before it was encoded, to be settled against
/// the hello's real size once it is (`HelloWork.settle`).
///
/// Before encoding, only the model's estimate (an upper bound, up to twice the real size for
/// small states) or the session's last hello size is known, so that is what decides whether
/// this hello is big; once encoded, the joiner's and its address's recent bytes keep what the
/// hello really was, so that a client's many small hellos are charged their bytes, not their
/// estimate.
struct HelloCharge: Sendable {
  /// Who joined.
  var client: ClientKey
  /// The bytes counted for the hello before encoding: its estimate or the session's last size.
  var bytes: Int
  /// Of `bytes`, what the client's and the address's recent bytes took (less when they were
  /// at their limit); nothing for a hello big by itself.
  var clientAdded: Double
  var addressAdded: Double
  /// Whether the hello is big (by itself, or with the client's or address's recent hellos): it
  /// takes a turn of `HelloWork`'s queue.
  var isBig: Bool
}
