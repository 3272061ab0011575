/// Every open connection by address group, and who gives way when the server is full.
///
/// One address group (`AddressGrouping`) may hold at most `perGroup` connections, well below
/// the global `maxConnections`; past it its new connections are refused. When the whole table
/// is full, a new connection from a lighter group is still taken: the heaviest group's idlest
/// connection (of several equally heavy groups, the idlest of theirs) (longest without a finished request or a WebSocket message; of equals, the
/// oldest) is closed for it. Only a connection from a group as heavy as the heaviest is
/// refused, so idle or slow connections from a few addresses cannot deny anyone else a socket.
///
/// Within a group, a client family (a browser's cookie family) that a request has named may
/// hold at most `perFamily` of its connections (`claim`), so one family cannot take the whole
/// group's share from the others behind the same address. A connection that has named no
/// family counts only against its group.
///
/// Pure: the caller passes times (monotonic nanoseconds) and closes the connections this names.
struct ConnectionTable {
  /// What to do with a new connection.
  enum Admission: Equatable {
    /// Take it as `id`; first close `evicting`, when given.
    case admit(id: Int, evicting: Int?)
    /// Its group holds `perGroup` connections already.
    case refuseGroupFull
    /// The table is full and its group is among the heaviest.
    case refuseFull
  }

  private struct Entry {
    var group: String
    var opened: UInt64
    var lastActive: UInt64
    /// The family a request on it named, once claimed.
    var family: String?
  }

  /// A family within a group.
  private struct FamilyKey: Hashable {
    var group: String
    var family: String
  }

  /// Most connections at once.
  let maxConnections: Int
  /// Most connections one address group may hold (unless exempt, e.g. a trusted proxy).
  let perGroup: Int
  /// Most connections one family of a group may hold once its requests name it.
  let perFamily: Int
  private var entries: [Int: Entry] = [:]
  private var groups: [String: Int] = [:]
  private var families: [FamilyKey: Int] = [:]
  private var nextID = 0

  init(maxConnections: Int, perGroup: Int, perFamily: Int? = nil) {
    self.maxConnections = max(1, maxConnections)
    self.perGroup = max(1, perGroup)
    self.perFamily = max(1, perFamily ?? perGroup)
  }

  /// Open connections of `family` within `group`.
  func count(of family: String, in group: String) -> Int {
    families[FamilyKey(group: group, family: family), default: 0]
  }

  /// Counts connection `id` against `family` of its group, the first time a request on it
  /// names one; false when that family holds `perFamily` connections already (the connection
  /// is then not counted for it). A connection counted for one family stays counted for it;
  /// an unknown (closed) one is let be.
  mutating func claim(_ id: Int, family: String) -> Bool {
    guard let entry = entries[id] else { return true }
    guard entry.family == nil else { return true }
    let key = FamilyKey(group: entry.group, family: family)
    guard families[key, default: 0] < perFamily else { return false }
    families[key, default: 0] += 1
    entries[id]?.family = family
    return true
  }

  /// Open connections.
  var count: Int { entries.count }

  /// Open connections of `group`.
  func count(of group: String) -> Int { groups[group, default: 0] }

  /// Admits a connection from `group`; `capped` false exempts it from the group cap.
  mutating func open(group: String, capped: Bool = true, now: UInt64) -> Admission {
    let mine = groups[group, default: 0]
    if capped && mine >= perGroup { return .refuseGroupFull }
    var victim: Int?
    if entries.count >= maxConnections {
      guard let heaviest = groups.values.max(), heaviest > mine + 1,
        let idlest = idlestConnection(amongGroupsOf: heaviest)
      else { return .refuseFull }
      close(idlest)
      victim = idlest
    }
    let id = nextID
    nextID += 1
    entries[id] = Entry(group: group, opened: now, lastActive: now)
    groups[group, default: 0] += 1
    return .admit(id: id, evicting: victim)
  }

  /// The connection finished a request or received a message.
  mutating func touch(_ id: Int, now: UInt64) {
    entries[id]?.lastActive = now
  }

  /// Forgets a closed connection (nothing when it was already evicted).
  mutating func close(_ id: Int) {
    guard let entry = entries.removeValue(forKey: id) else { return }
    let left = groups[entry.group, default: 1] - 1
    groups[entry.group] = left > 0 ? left : nil
    if let family = entry.family {
      let key = FamilyKey(group: entry.group, family: family)
      let rest = families[key, default: 1] - 1
      families[key] = rest > 0 ? rest : nil
    }
  }

  /// Of the groups holding `size` connections, the connection idle longest; of equals, the
  /// oldest.
  private func idlestConnection(amongGroupsOf size: Int) -> Int? {
    var best: (id: Int, entry: Entry)?
    for (id, entry) in entries where groups[entry.group] == size {
      guard let current = best else {
        best = (id, entry)
        continue
      }
      if (entry.lastActive, entry.opened, id)
        < (current.entry.lastActive, current.entry.opened, current.id)
      {
        best = (id, entry)
      }
    }
    return best?.id
  }
}
