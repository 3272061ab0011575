extension ReplaySession: ViewerWork {
  var jobLabel: String { "replay" }
}
