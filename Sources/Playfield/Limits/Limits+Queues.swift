extension Limits {
  /// A fair queue's bounds: `running` jobs at once, the rest from these limits, with an
  /// address's clients together allowed `familiesPerAddress` times one client's share.
  func queue<Job>(
    running: Int, waiting: Limit<Int>, perClient: Limit<Int>, deadline: Limit<Double>
  ) -> FairQueue<Job>.Limits {
    FairQueue<Job>.Limits(
      running: running, waiting: self[waiting], perClient: self[perClient],
      perAddress: self[perClient] * self[.familiesPerAddress], deadline: self[deadline])
  }
}
