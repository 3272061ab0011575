/// Why a render ended without a result.
public enum RenderStopped: Error, Sendable, Equatable {
  /// `RenderCancellation.cancel()` was called: nobody waits for the tile any more.
  case cancelled
  /// The deadline given to `RenderCancellation` passed.
  case deadlinePassed
}
