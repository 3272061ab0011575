import HTTP
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files under `Public/`, served at the root path.
///
/// Small files live in memory with their gzip forms; each is compared with the disk at most
/// once a second. A request can never reach outside the root: paths arrive as decoded segments
/// without `..`, hidden names are refused, and symbolic links must resolve inside the root.
final class StaticFiles: Sendable {
  /// The root, with symbolic links resolved.
  let root: String
  let gzip: @Sendable ([UInt8]) -> [UInt8]?
  private let cache = Mutex<[String: Entry]>([:])
  /// Largest file served; bigger ones are not found.
  static let maxFileSize = 64 << 20
  /// How long a cached file is trusted before the disk is checked again, in seconds.
  static let revalidateAfter = 1.0

  init(root: String, gzip: @escaping @Sendable ([UInt8]) -> [UInt8]?) {
    self.root = Self.resolve(root) ?? root
    self.gzip = gzip
    preload()
  }

  /// The file at `segments` of `request`'s path, or nil when there is none (hidden names and
  /// folders are none).
  func file(at segments: ArraySlice<String>, of request: Request) -> StaticFile? {
    guard !segments.isEmpty, !segments.contains(where: { $0.utf8.first == UInt8(ascii: ".") }),
      !URLPath.isFolderForm(request.path)
    else { return nil }
    return file(at: segments.count == 1 ? segments.first! : segments.joined(separator: "/"))
  }

  /// The response for `file` now.
  static func respond(_ file: StaticFile, to request: Request) -> Response {
    respond(file, to: request, now: Int64(time(nil)))
  }

  /// Conditional requests, ranges and content coding for one cached file; `now` is the wall
  /// clock in seconds since 1970.
  static func respond(_ file: StaticFile, to request: Request, now: Int64) -> Response {
    // NB: the gzip form is copied only when it is asked for: a copy of a response costs a
    // retain and a release per field (issue 31).
    let gzipped = file.compressed != nil && acceptsGzip(request.headers["Accept-Encoding"])
    var response = gzipped ? file.compressed! : file.identity
    let outcome = Preconditions.evaluate(
      request, etag: gzipped ? file.gzipETag : file.etag, lastModified: file.lastModified,
      now: now)
    if let answer = Preconditions.answer(outcome, for: response) { return answer }

    guard !gzipped, let rangeHeader = request.headers["Range"] else { return response }
    var range = ByteRange(rangeHeader, size: file.body.count)
    if let ifRange = request.headers["If-Range"], !ifRangeHolds(ifRange, file: file) {
      range = .whole
    }
    switch range {
    case .whole:
      return response
    case .part(let bytes):
      response.status = .partialContent
      response.headers.add(
        "Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(file.body.count)")
      response.body = Array(file.body[bytes])
      return response
    case .unsatisfiable:
      var response = HTTPError(.rangeNotSatisfiable, "the range lies outside the file").response
      response.headers.add("Content-Range", "bytes */\(file.body.count)")
      return response
    }
  }

  // MARK: Negotiation

  /// Whether `Accept-Encoding` allows gzip (RFC 9110 §12.5.3).
  static func acceptsGzip(_ header: String?) -> Bool {
    guard let header else { return false }
    var gzip: Double?
    var star: Double?
    for element in header.split(separator: ",") {
      let parts = element.split(separator: ";")
      guard let coding = parts.first?.trimmingSpaces().lowercased() else { continue }
      var quality = 1.0
      for parameter in parts.dropFirst() {
        let pair = parameter.trimmingSpaces().lowercased()
        if pair.hasPrefix("q="), let value = Double(pair.dropFirst(2)) { quality = value }
      }
      if coding == "gzip" || coding == "x-gzip" { gzip = quality }
      if coding == "*" { star = quality }
    }
    return (gzip ?? star ?? 0) > 0
  }

  /// `If-Range` holds when it is the strong ETag, or exactly the Last-Modified date.
  static func ifRangeHolds(_ value: String, file: StaticFile) -> Bool {
    let value = value.trimmingSpaces()
    if value.hasPrefix("\"") { return value == file.etag }
    return HTTPDate.parse(value) == file.lastModified
  }

  // MARK: Disk

  /// A cached file and when it was last compared with the disk, in monotonic seconds.
  private struct Entry {
    var file: StaticFile
    var checkedAt: Double
  }

  private func file(at key: String) -> StaticFile? {
    let now = Self.monotonicSeconds()
    let cached = cache.withLock { $0[key] }
    if let cached, now - cached.checkedAt < Self.revalidateAfter { return cached.file }
    guard let (path, stamp) = locate(key) else {
      cache.withLock { $0[key] = nil }
      return nil
    }
    if let cached, cached.file.stamp == stamp {
      cache.withLock { $0[key] = Entry(file: cached.file, checkedAt: now) }
      return cached.file
    }
    guard let bytes = Self.read(path, size: stamp.size) else { return nil }
    let file = StaticFile(name: key, body: bytes, stamp: stamp, gzip: gzip)
    cache.withLock { $0[key] = Entry(file: file, checkedAt: now) }
    return file
  }

  /// The real path and stamp of a regular file inside the root, or nil.
  private func locate(_ key: String) -> (String, FileStamp)? {
    guard let real = Self.resolve(root + "/" + key), real.hasPrefix(root + "/") else { return nil }
    // A link inside the root may still point at a hidden file (`.git/config`).
    guard
      !real.dropFirst(root.count + 1).split(separator: "/").contains(where: { $0.hasPrefix(".") })
    else { return nil }
    var info = stat()
    guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
      Int(info.st_size) <= Self.maxFileSize
    else { return nil }
    #if canImport(Glibc)
      let modified = Int64(info.st_mtim.tv_sec)
    #else
      let modified = Int64(info.st_mtimespec.tv_sec)
    #endif
    return (real, FileStamp(size: Int(info.st_size), modified: modified))
  }

  private func preload() {
    for path in filesBelow(root) ?? [] {
      _ = file(at: path)
    }
  }

  static func resolve(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(
      decoding: UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)), as: UTF8.self)
  }

  static func read(_ path: String, size: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: size)
    var done = 0
    while done < size {
      let count = bytes.withUnsafeMutableBytes {
        systemRead(fd, $0.baseAddress! + done, size - done)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      done += count
    }
    return bytes
  }

  /// A monotonic clock reading in seconds; the coarse clock is plenty for a 1 s revalidation
  /// and cheaper to read on every request.
  static func monotonicSeconds() -> Double {
    var time = timespec()
    #if os(Linux)
      clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
    #else
      clock_gettime(CLOCK_MONOTONIC, &time)
    #endif
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, buffer, count)
}
