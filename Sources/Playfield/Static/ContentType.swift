/// Media types by file extension, and which of them are worth compressing.
enum ContentType {
  static let byExtension: [String: String] = [
    "html": "text/html; charset=utf-8",
    "htm": "text/html; charset=utf-8",
    "css": "text/css; charset=utf-8",
    "js": "text/javascript; charset=utf-8",
    "mjs": "text/javascript; charset=utf-8",
    "json": "application/json",
    "map": "application/json",
    "txt": "text/plain; charset=utf-8",
    "md": "text/markdown; charset=utf-8",
    "xml": "application/xml",
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "svg": "image/svg+xml",
    "ico": "image/x-icon",
    "webp": "image/webp",
    "avif": "image/avif",
    "woff": "font/woff",
    "woff2": "font/woff2",
    "wasm": "application/wasm",
    "webmanifest": "application/manifest+json",
    "py": "text/x-python; charset=utf-8",
  ]

  /// The media type for a file name; unknown extensions are plain bytes.
  static func forFile(_ name: String) -> String {
    guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
    return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
  }

  /// Whether gzip usually shrinks this type (text, JSON, SVG, WebAssembly).
  static func isCompressible(_ type: String) -> Bool {
    type.hasPrefix("text/") || type.hasPrefix("application/json")
      || type.hasPrefix("application/xml") || type.hasPrefix("image/svg+xml")
      || type.hasPrefix("application/wasm") || type.hasPrefix("application/manifest+json")
  }

  static func isHTML(_ type: String) -> Bool { type.hasPrefix("text/html") }
}
