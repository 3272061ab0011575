/// A pixel's orbit on its way into a lane: which pixel, its c, and z after `count` updates.
struct Orbit {
  var pixel: Int
  var cx: Double
  var cy: Double
  var x = 0.0
  var y = 0.0
  var count = 0
}
