/// One entry of a `BilinearTable`: `length` iterations from some m taken at once as
/// z ← A·z + B·c, valid while |z| < `radius`.
struct BilinearStep: Sendable {
  var ax: Double
  var ay: Double
  var bx: Double
  var by: Double
  /// Below this |z| (measured as |re| + |im|) the step's neglected terms are below ε.
  var radius: Double
  /// log2(radius), for deltas compared in extended form.
  var log2Radius: Double
}
