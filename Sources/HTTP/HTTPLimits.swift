/// Size bounds the parser enforces on every request.
public struct HTTPLimits: Sendable, Equatable {
  /// Longest request line, in bytes; beyond it, 414.
  public var maxRequestLine: Int = 8 * 1024
  /// Longest request head (request line and header fields), in bytes; beyond it, 431.
  public var maxHeaderBlock: Int = 16 * 1024
  /// Longest single header field line, in bytes; beyond it, 431 (nginx and Apache stop at 8 KiB
  /// too).
  public var maxFieldLine: Int = 8 * 1024
  /// Most header fields in one request; beyond it, 431. (The head's size bounds them anyway;
  /// nginx has no count, so a lower one would refuse what it serves.)
  public var maxHeaderCount: Int = 1024
  /// Largest request body, in bytes, after removing chunked framing; beyond it, 413.
  public var maxBody: Int = 1 << 20

  public init() {}

  public static let `default` = HTTPLimits()
}
