import Foundation

/// Writes finished pixels into an `EscapeField`'s storage; shared by the workers of one render,
/// each of which writes only the pixels it owns.
struct FieldWriter: @unchecked Sendable {
  let counts: UnsafeMutablePointer<UInt32>
  let smoothCounts: UnsafeMutablePointer<Float>?
  let maxIterations: Int

  /// Records a pixel that never escapes.
  @inline(__always)
  func inside(_ pixel: Int) {
    counts[pixel] = UInt32(maxIterations)
  }

  /// Records a pixel that escaped after `count` updates when its z is no longer at hand: the
  /// orbit is replayed (with the scalar loop's operations) only if a smooth count is wanted.
  @inline(__always)
  func escaped(_ pixel: Int, count: Int, cx: Double, cy: Double) {
    guard smoothCounts != nil else {
      counts[pixel] = UInt32(count)
      return
    }
    var x = 0.0
    var y = 0.0
    for _ in 0..<count {
      let xy = x * y
      (x, y) = (x * x - y * y + cx, xy + xy + cy)
    }
    escaped(pixel, count: count, x: x, y: y, cx: cx, cy: cy)
  }

  /// Records a pixel that escaped after `count` updates with z = (x, y), and its smooth count
  /// when the render wants one.
  @inline(__always)
  func escaped(_ pixel: Int, count: Int, x: Double, y: Double, cx: Double, cy: Double) {
    counts[pixel] = UInt32(count)
    guard let smoothCounts else { return }
    var x = x
    var y = y
    for _ in 0..<EscapeField.extraIterations {
      let xy = x * y
      (x, y) = (x * x - y * y + cx, xy + xy + cy)
    }
    let log2Modulus = 0.5 * log2(x * x + y * y)
    smoothCounts[pixel] = Float(Double(count + EscapeField.extraIterations) + 1 - log2(log2Modulus))
  }
}
