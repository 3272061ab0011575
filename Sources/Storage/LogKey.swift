/// Where a row sits in a session's log: the key of an input (and, with seq 0, of a snapshot).
struct LogKey: Hashable {
  var sessionID: String
  var tick: Int64
  var seq: Int64
}
