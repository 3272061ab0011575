/// Sixteen lanes' worth of doubles, one row per quantity, that the SIMD loops load as vectors
/// and the scalar code reads and writes lane by lane.
struct LaneValues: ~Copyable {
  /// Lanes in a row: four SIMD4 or two SIMD8 vectors.
  static let lanes = 16

  /// The quantities kept per lane.
  enum Row: Int, CaseIterable {
    case x = 0
    case y
    case cx
    case cy
    /// The point a periodic lane compares z against.
    case savedX
    case savedY
    /// The count of a group-pass lane, as a Double.
    case count
    /// 1 for a group-pass lane answered in closed form, else 0.
    case interior

    /// The offset of the row's first lane.
    var offset: Int { rawValue * LaneValues.lanes }
  }

  /// The rows, one after another.
  let base: UnsafeMutablePointer<Double>

  init() {
    let count = Row.allCases.count * Self.lanes
    base = .allocate(capacity: count)
    base.initialize(repeating: 0, count: count)
  }

  deinit {
    base.deallocate()
  }

  /// The value of `row` in `lane`.
  @inline(__always)
  subscript(row: Row, lane: Int) -> Double {
    get { base[row.offset + lane] }
    nonmutating set { base[row.offset + lane] = newValue }
  }

  /// Vector `index` of `row` (lanes `index·n ..< (index+1)·n` for a vector of n lanes).
  @inline(__always)
  static func load<Vector: SIMD>(
    _ base: UnsafeMutablePointer<Double>, _ row: Row, _ index: Int
  ) -> Vector where Vector.Scalar == Double {
    UnsafeRawPointer(base + row.offset + Vector.scalarCount * index).loadUnaligned(as: Vector.self)
  }

  /// Stores `vector` as vector `index` of `row`.
  @inline(__always)
  static func store<Vector: SIMD>(
    _ vector: Vector, _ base: UnsafeMutablePointer<Double>, _ row: Row, _ index: Int
  ) where Vector.Scalar == Double {
    UnsafeMutableRawPointer(base + row.offset + Vector.scalarCount * index).storeBytes(
      of: vector, as: Vector.self)
  }
}
