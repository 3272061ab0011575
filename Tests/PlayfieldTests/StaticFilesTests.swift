import Foundation
import HTTP
import Testing

@testable import Playfield

/// A public folder in a fresh temporary directory, with a secret beside it.
private struct Site {
  let directory: URL
  var root: String { directory.appendingPathComponent("public").path }

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("static-\(UUID().uuidString)")
    let files = [
      "public/a.txt": String(repeating: "text ", count: 200),
      "public/sub/b.css": "body { color: red }",
      "public/.hidden": "hidden",
      "public/.git/config": "secret",
      "secret.txt": "outside",
    ]
    for (name, text) in files {
      let url = directory.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    let links = [
      "public/out.txt": directory.appendingPathComponent("secret.txt").path,
      "public/in.txt": directory.appendingPathComponent("public/a.txt").path,
      "public/git.txt": directory.appendingPathComponent("public/.git/config").path,
    ]
    for (name, destination) in links {
      try FileManager.default.createSymbolicLink(
        atPath: directory.appendingPathComponent(name).path, withDestinationPath: destination)
    }
  }

  func remove() {
    try? FileManager.default.removeItem(at: directory)
  }
}

private func request(_ target: String, _ headers: HTTPHeaders = [:], method: HTTPMethod = .get)
  -> Request
{
  var headers = headers
  headers.add("Host", "test")
  return Request(method: method, target: target, headers: headers)
}

private func packed(_ bytes: [UInt8]) -> [UInt8]? { Array(bytes.prefix(10)) }

@Suite struct StaticFilesTests {
  @Test func servesFilesAndNothingOutsideOrHidden() throws {
    let site = try Site()
    defer { site.remove() }
    let files = StaticFiles(root: site.root, gzip: packed)
    func status(_ path: String) -> Int? {
      let segments = (try? URLPath.segments(path[...])) ?? []
      let request = request(path)
      return files.file(at: segments[...], of: request).map {
        StaticFiles.respond($0, to: request).status.code
      }
    }
    #expect(status("/a.txt") == 200)
    #expect(status("/sub/b.css") == 200)
    #expect(status("/in.txt") == 200, "a link that stays inside is followed")
    #expect(status("/out.txt") == nil, "a link out of the root is not")
    #expect(status("/git.txt") == nil, "nor one to a hidden file inside")
    #expect(status("/.hidden") == nil)
    #expect(status("/.git/config") == nil)
    #expect(status("/sub") == nil, "no folders")
    #expect(status("/a.txt/") == nil, "a file is no folder")
    #expect(status("/missing") == nil)
  }

  @Test func negotiatesGzipWithItsOwnTag() throws {
    let file = StaticFile(
      name: "a.txt", body: Array(repeating: 65, count: 1000),
      stamp: FileStamp(size: 1000, modified: 0),
      gzip: packed)
    let plain = StaticFiles.respond(file, to: request("/a.txt"), now: 100)
    let zipped = StaticFiles.respond(
      file, to: request("/a.txt", ["Accept-Encoding": "gzip"]), now: 100)
    #expect(plain.body.count == 1000)
    #expect(plain.headers["Content-Encoding"] == nil)
    #expect(zipped.headers["Content-Encoding"] == "gzip")
    #expect(zipped.body.count == 10)
    #expect(plain.headers["Vary"] == "Accept-Encoding")
    #expect(plain.headers["ETag"] != zipped.headers["ETag"])
    #expect(plain.preparedFields != nil, "cached responses carry their serialized fields")
  }

  @Test func conditionalsAndRanges() throws {
    let body = Array((0..<100).map { UInt8($0) })
    let file = StaticFile(
      name: "b.bin", body: body, stamp: FileStamp(size: 100, modified: 1000), gzip: packed)
    let etag = file.etag
    func answer(_ headers: HTTPHeaders) -> Response {
      StaticFiles.respond(file, to: request("/b.bin", headers), now: 5000)
    }
    #expect(answer(["If-None-Match": etag]).status == .notModified)
    #expect(answer(["If-None-Match": etag]).body.isEmpty)
    #expect(answer(["If-None-Match": "W/\(etag)"]).status == .notModified)
    #expect(answer(["If-Match": "W/\(etag)"]).status == .preconditionFailed, "If-Match is strong")
    #expect(answer(["If-Match": etag]).status == .ok)
    #expect(answer(["If-Modified-Since": HTTPDate.format(1000)]).status == .notModified)
    #expect(answer(["If-Modified-Since": HTTPDate.format(9000)]).status == .ok, "future")
    #expect(answer(["If-Unmodified-Since": HTTPDate.format(999)]).status == .preconditionFailed)

    let part = answer(["Range": "bytes=10-19"])
    #expect(part.status == .partialContent)
    #expect(part.body == Array(body[10...19]))
    #expect(part.headers["Content-Range"] == "bytes 10-19/100")
    let stale = answer(["Range": "bytes=10-19", "If-Range": "\"old\""])
    #expect(stale.status == .ok)
    let beyond = answer(["Range": "bytes=100-"])
    #expect(beyond.status == .rangeNotSatisfiable)
    #expect(beyond.headers["Content-Range"] == "bytes */100")
  }

  @Test(
    arguments: [
      (nil, ByteRange.whole),
      ("bytes=0-9", .part(0...9)),
      ("bytes=90-", .part(90...99)),
      ("bytes=-10", .part(90...99)),
      ("bytes=-500", .part(0...99)),
      ("bytes=95-500", .part(95...99)),
      ("bytes=0-99999999999999999999999", .part(0...99)),
      ("bytes=0-9,", .part(0...9)),
      ("BYTES = 0-9", .whole),
      ("bytes=100-", .unsatisfiable),
      ("bytes=-0", .unsatisfiable),
      ("bytes=9-0", .unsatisfiable),
      ("bytes=abc", .unsatisfiable),
      ("bytes=0-1,5-6", .whole),
      ("bytes=200-,300-", .unsatisfiable),
      ("items=0-9", .whole),
    ] as [(String?, ByteRange)])
  func byteRanges(_ header: String?, _ expected: ByteRange) {
    #expect(ByteRange(header, size: 100) == expected)
  }

  @Test(arguments: [
    ("gzip", true), ("deflate, gzip;q=0.5", true), ("gzip;q=0", false), ("*", true),
    ("*;q=0", false), ("br", false), ("identity", false), ("GZIP", true), ("x-gzip", true),
  ])
  func gzipAcceptance(_ header: String, _ expected: Bool) {
    #expect(StaticFiles.acceptsGzip(header) == expected)
  }

  @Test func renderedPagesGetAnETagAndConditionals() throws {
    let page = Response(status: .ok, contentType: "text/html", body: "<p>hi</p>")
    let first = Preconditions.validate(page, for: request("/"))
    let etag = try #require(first.headers["ETag"])
    #expect(first.status == .ok)
    let again = Preconditions.validate(page, for: request("/", ["If-None-Match": etag]))
    #expect(again.status == .notModified)
    #expect(
      Preconditions.validate(page, for: request("/", ["If-None-Match": "*"])).status == .notModified
    )
    #expect(
      Preconditions.validate(page, for: request("/", ["If-Match": "\"x\""])).status
        == .preconditionFailed)
  }
}
