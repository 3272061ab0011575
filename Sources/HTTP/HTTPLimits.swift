/// Size bounds the parser enforces on every request.
public struct HTTPLimits: Sendable, Equatable {
  /// Longest request line, in bytes; beyond it, 414.
  public var maxRequestLine: Int = 8 * 1024
  /// Longest request head (request line and header fields), in bytes; beyond it, 431.
  public var maxHeaderBlock: Int = 16 * 1024
  /// Longest single header field line, in bytes; beyond it, 431 (nginx and Apache stop at 8 KiB
  /// too).
  public var maxFieldLine: Int = 8 * 1024
  /// Most header fields in one request; beyond it, 431.
  public var maxHeaderCount: Int = 100
  /// Largest request body, in bytes, after removing chunked framing; beyond it, 413.
  public var maxBody: Int = 1 << 20
  /// Longest chunk-size line (with extensions), in bytes; beyond it, 400.
  public var maxChunkLine: Int = 4 * 1024

  public init() {}

  public static let `default` = HTTPLimits()
}
