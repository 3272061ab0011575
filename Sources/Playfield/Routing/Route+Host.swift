extension Route {
  /// Whether the route reads or changes the server's state (sessions, their sockets, replays,
  /// scores, mazes), so that only a `Host` we answer to may reach it.
  ///
  /// NB: DNS rebinding lets a page on another site talk to us as its own origin; what it could
  /// gain is the state behind these routes. Static files, demo pages, tiles and spheres are
  /// public and already loadable from any site (an `<img>` or `<script>` needs no rebinding),
  /// so they answer any `Host`, as the servers people trust do for static content.
  var guardsState: Bool {
    switch self {
    case .sessionSocket, .sessionsAPI, .sessionAPI, .sessionState, .sessionReplayState,
      .sessionInputs, .replaySocket, .highScores, .sessionsPage, .replayPage, .mazes, .maze:
      true
    case .gallery, .health, .demo, .embed, .echoSocket, .oEmbed, .tile, .demosAPI, .spheres,
      .file:
      false
    }
  }
}
