import JSON

extension ApollonianPacking {
  /// The seed's surface shell: spheres whose far side reaches past this fraction of the
  /// outer radius (|centre| + r > 0.99).
  public static let surfaceReach = 0.99

  /// The spheres to serve: all of them, or only the surface shell (which leaves out the outer
  /// sphere, whose radius is negative).
  public func selected(surface: Bool) -> [Sphere] {
    surface ? spheres.filter { $0.reach > Self.surfaceReach } : spheres
  }

  /// The seed's JSON, `[{"X":..,"Y":..,"Z":..,"R":..,"L":..},...]`, scaled to `radius`.
  public static func json(_ spheres: [Sphere], radius: Double) -> [UInt8] {
    var writer = JSONWriter(capacity: 16 + spheres.count * 96)
    writer.beginArray()
    for sphere in spheres {
      writer.beginObject()
      writer.field("X", sphere.x * radius)
      writer.field("Y", sphere.y * radius)
      writer.field("Z", sphere.z * radius)
      writer.field("R", sphere.radius * radius)
      writer.field("L", Int(sphere.level))
      writer.endObject()
    }
    writer.endArray()
    writer.bytes.append(0x0A)
    return writer.bytes
  }

  /// The compact form (docs/apollonian.md): a 16-byte header, then every sphere's x, y, z, r
  /// as little-endian float32 (16 bytes each), then every sphere's level as one byte.
  ///
  /// Header: the ASCII magic `PFSP`, the count (uint32), the outer radius (float32), and the
  /// format version 1 (uint32), all little-endian. The floats start at byte 16 and the levels
  /// at byte 16 + 16 * count, so a browser can view both without copying.
  public static func binary(_ spheres: [Sphere], radius: Double) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(SphereBinary.headerSize + spheres.count * 17)
    out.append(contentsOf: SphereBinary.magic)
    append(UInt32(spheres.count), to: &out)
    append(Float(radius).bitPattern, to: &out)
    append(SphereBinary.version, to: &out)
    for sphere in spheres {
      append(Float(sphere.x * radius).bitPattern, to: &out)
      append(Float(sphere.y * radius).bitPattern, to: &out)
      append(Float(sphere.z * radius).bitPattern, to: &out)
      append(Float(sphere.radius * radius).bitPattern, to: &out)
    }
    for sphere in spheres { out.append(sphere.level) }
    return out
  }

  private static func append(_ value: UInt32, to out: inout [UInt8]) {
    out.append(UInt8(truncatingIfNeeded: value))
    out.append(UInt8(truncatingIfNeeded: value >> 8))
    out.append(UInt8(truncatingIfNeeded: value >> 16))
    out.append(UInt8(truncatingIfNeeded: value >> 24))
  }
}
