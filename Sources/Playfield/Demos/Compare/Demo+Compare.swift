extension Demo {
  /// Compare (seed 004, "Multiple Video Playback"): 2 to 4 panes of one session demo from the
  /// same seed, each with its own config overrides, stepped in lockstep by the server, with one
  /// transport and the first tick where they differ.
  static let compare = Demo(
    page: "compare", title: "Compare",
    summary: "Two to four runs of one simulation in lockstep, one setting changed, and the tick "
      + "where they part.",
    seed: "Multiple Video Playback", group: .explorers, frame: .init(800, 520),
    routes: { context in
      CompareAPI(
        compares: context.compares, random: context.environment.random,
        identifier: { [registry = context.registry] in registry.routedIdentifier($0) },
        wallClock: context.environment.wallClock,
        journal: context.registry.journal as? StorageJournal,
        chunkSize: context.environment.limits[.replayChunkInputs], storeCalls: context.storeCalls
      ).routes
    })
}
