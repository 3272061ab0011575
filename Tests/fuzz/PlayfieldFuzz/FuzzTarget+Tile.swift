import Tiles

extension FuzzTarget {
  /// Any text as `Z/X/Y?query` parses to a tile or fails with a status, both ways in.
  static func tile(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let path = parts[0]
    let query = parts.count > 1 ? parts[1] : nil
    if let tile = try? TileRequest.parse(path: path, query: query) {
      precondition(TileRequest.iterationRange.contains(tile.iterations))
      _ = tile.etag
    }
    let pieces = path.split(separator: "/", omittingEmptySubsequences: false)
    if pieces.count == 3 {
      do {
        _ = try TileRequest.parse(zoom: pieces[0], x: pieces[1], y: pieces[2], query: query)
      } catch {
        precondition((400..<500).contains(error.status))
      }
    }
  }
}
