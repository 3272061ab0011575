import Foundation

/// Bilinear approximation (BLA) of a reference orbit: level l holds steps of 2^l iterations,
/// entry i starting at m = 1 + i·2^l. While the delta z is small next to Z_m, the update
/// z ← 2·Z_m·z + z² + c is linear in z and c, and linear maps compose, so many iterations are
/// taken as one (Zhuoran's method, as described in Fraktaler 3's manual).
///
/// One step: A = 2·Z_m, B = 1, valid while |z| < ε·|Z_m| (then |z²| < ε·|2·Z_m·z|). Steps x then
/// y merge as A = A_y·A_x, B = A_y·B_x + B_y, R = max(0, min(R_x, (R_y - |B_x|·|c|max)/|A_x|)).
struct BilinearTable: Sendable {
  /// The relative size of the neglected z² term a step allows: about one unit in the last place.
  static let epsilon = 0x1p-53

  let levels: [[BilinearStep]]

  /// The table of `orbit` for pixels whose |c| is at most `cMaxMantissa`·2^`cMaxExponent`.
  init(orbit: ReferenceOrbit, cMaxMantissa: Double, cMaxExponent: Int) {
    let count = max(0, orbit.last - 1)
    var level = (0..<count).map { index -> BilinearStep in
      let (zx, zy) = (orbit.x[index + 1], orbit.y[index + 1])
      let radius = Self.epsilon * (zx * zx + zy * zy).squareRoot()
      return BilinearStep(
        ax: 2 * zx, ay: 2 * zy, bx: 1, by: 0, radius: radius, log2Radius: log2(radius))
    }
    var levels: [[BilinearStep]] = []
    while !level.isEmpty {
      levels.append(level)
      guard level.count > 1 else { break }
      level = stride(from: 0, to: level.count - 1, by: 2).map {
        Self.merge(
          level[$0], then: level[$0 + 1], cMaxMantissa: cMaxMantissa,
          cMaxExponent: cMaxExponent)
      }
    }
    self.levels = levels
  }

  private static func merge(
    _ x: BilinearStep, then y: BilinearStep, cMaxMantissa: Double, cMaxExponent: Int
  ) -> BilinearStep {
    let ax = y.ax * x.ax - y.ay * x.ay
    let ay = y.ax * x.ay + y.ay * x.ax
    let bx = y.ax * x.bx - y.ay * x.by + y.bx
    let by = y.ax * x.by + y.ay * x.bx + y.by
    let bTimesC = scalbn((x.bx * x.bx + x.by * x.by).squareRoot() * cMaxMantissa, cMaxExponent)
    let aMagnitude = (x.ax * x.ax + x.ay * x.ay).squareRoot()
    var radius = max(0, min(x.radius, (y.radius - bTimesC) / aMagnitude))
    let finite = [ax, ay, bx, by, radius].allSatisfy(\.isFinite)
    if !finite { radius = 0 }
    return BilinearStep(
      ax: finite ? ax : 0, ay: finite ? ay : 0, bx: finite ? bx : 0, by: finite ? by : 0,
      radius: radius, log2Radius: log2(radius))
  }

  /// The longest step from iteration m (≥ 1) of at most `remaining` iterations that is valid
  /// for a delta of size `norm` (|re| + |im|), or of log2 size `log2Norm`; nil when none is.
  @inline(__always)
  func step(from m: Int, norm: Double, log2Norm: Double, remaining: Int) -> (
    BilinearStep, length: Int
  )? {
    let start = m - 1
    guard start >= 0, !levels.isEmpty, start < levels[0].count else { return nil }
    let single = levels[0][start]
    // NB: every longer step's radius is at most the single step's, so most misses end here.
    guard norm < single.radius && log2Norm < single.log2Radius else { return nil }
    var level = min(start == 0 ? levels.count - 1 : start.trailingZeroBitCount, levels.count - 1)
    while level >= 0 {
      let index = start >> level
      let length = 1 << level
      if length <= remaining, index < levels[level].count {
        let step = levels[level][index]
        if norm < step.radius && log2Norm < step.log2Radius { return (step, length) }
      }
      level -= 1
    }
    return nil
  }

  /// Bytes the table holds, for the orbit cache's budget.
  var bytes: Int {
    levels.reduce(0) { $0 + $1.count * MemoryLayout<BilinearStep>.stride }
  }
}
