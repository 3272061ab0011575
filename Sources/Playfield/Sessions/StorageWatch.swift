/// Whether this process can store its sessions' inputs now, judged from what its writer and
/// lease keeper report: the `unstored` notice (docs/protocol.md) is sent when this turns from
/// yes to no, and `stored` ones again when it turns back.
///
/// Storing fails when the last flush failed, when the last lease renewal failed (a process cut
/// off from a shared store cannot keep its sessions: another may adopt them once their leases
/// run out), or when a flush or a renewal has waited for the database longer than `deadline`
/// (a database that takes writes in but does not answer, or a network that drops them). No
/// clock and no I/O: the journal's watching thread hands in the signs and the time.
struct StorageWatch: Equatable {
  /// What the writer and the lease keeper say now.
  struct Signs: Equatable {
    /// Flushes failed in a row (0 after a success).
    var writeFailures = 0
    /// When the flush under way began; nil between flushes.
    var flushingSince: Double?
    /// Renewals failed in a row; 0 without leases.
    var renewalFailures = 0
    /// When the renewal under way was sent; nil between renewals or without leases.
    var renewingSince: Double?
  }

  /// Seconds a flush or a renewal may wait for its answer before storing counts as failed.
  let deadline: Double
  /// Why inputs are not stored now, as clients are told it; nil while they are.
  private(set) var problem: String?

  init(deadline: Double) {
    self.deadline = deadline
  }

  /// Takes in `signs` read at `now` (the clock of their times): the new problem when storing
  /// just stopped, `.some(nil)` when it just works again, nil when nothing changed.
  mutating func judge(_ signs: Signs, now: Double) -> String?? {
    let found = Self.problem(signs, now: now, deadline: deadline)
    guard (found == nil) != (problem == nil) else { return nil }
    problem = found
    return .some(found)
  }

  /// Why `signs` say inputs are not stored at `now`, or nil. Worded for clients: never the
  /// database's address or its own error text (the server log has those).
  static func problem(_ signs: Signs, now: Double, deadline: Double) -> String? {
    if signs.writeFailures > 0 { return "the database cannot be written" }
    if signs.renewalFailures > 0 {
      return "this server cannot renew its hold on its sessions (their leases) in the database"
    }
    if let since = signs.flushingSince, now - since > deadline {
      return "the database has not answered a write for \(Self.seconds(deadline)) s"
    }
    if let since = signs.renewingSince, now - since > deadline {
      return "the database has not answered a lease renewal for \(Self.seconds(deadline)) s"
    }
    return nil
  }

  private static func seconds(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
