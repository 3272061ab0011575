/// The plain escape-time loop of `shared/bench/mandel_tile.h`, one pixel at a time.
enum ScalarLoop {
  /// The count of c = (cx, cy) and z where the loop stopped.
  @inline(__always)
  static func iterate(
    cx: Double, cy: Double, maxIterations: Int
  ) -> (count: Int, x: Double, y: Double) {
    var x = 0.0
    var y = 0.0
    var count = 0
    while count < maxIterations {
      let xx = x * x
      let yy = y * y
      if xx + yy > 4 { break }
      let xy = x * y
      y = xy + xy + cy
      x = xx - yy + cx
      count += 1
    }
    return (count, x, y)
  }

  /// Computes every pixel of `viewport` on the calling thread, row by row until
  /// `cancellation` says to stop.
  static func fill(_ viewport: Viewport, writer: FieldWriter, cancellation: RenderCancellation?) {
    for row in 0..<viewport.height where cancellation?.reason == nil {
      let cy = viewport.imaginary(row: row)
      for column in 0..<viewport.width {
        let cx = viewport.real(column: column)
        let pixel = row * viewport.width + column
        let (count, x, y) = iterate(cx: cx, cy: cy, maxIterations: writer.maxIterations)
        if count == writer.maxIterations {
          writer.inside(pixel)
        } else {
          writer.escaped(pixel, count: count, x: x, y: y, cx: cx, cy: cy)
        }
      }
    }
  }
}
