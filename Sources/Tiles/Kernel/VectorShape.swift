/// The vector type a `LaneBlock` iterates with.
enum VectorShape: Sendable {
  /// Four SIMD4<Double> vectors: AVX2.
  case four
  /// Two SIMD8<Double> vectors: AVX-512.
  case eight
}
