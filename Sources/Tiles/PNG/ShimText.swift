/// Reads the fixed-size C `char` arrays the PNG shim fills with messages.
enum ShimText {
  /// The NUL-terminated text in `buffer`, a C `char[N]` imported as a tuple.
  static func string<Buffer>(from buffer: inout Buffer) -> String {
    withUnsafeBytes(of: &buffer) { raw in
      let bytes = raw.prefix { $0 != 0 }
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}
