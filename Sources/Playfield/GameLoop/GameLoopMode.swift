/// How the game loop is driven.
public enum GameLoopMode: Sendable {
  /// Its own thread, 60 ticks a second on the monotonic clock.
  case thread
  /// Only `Application.tick()` advances it, one tick per call (tests).
  case manual
}
