import Dispatch
import HTTP
import Synchronization
import Testing

@testable import Playfield
@testable import Server

private func get(_ target: String, _ headers: HTTPHeaders = [:], method: HTTPMethod = .get)
  -> Request
{
  var headers = headers
  headers.add("Host", "test")
  return Request(method: method, target: target, headers: headers)
}

typealias Spheres = ColdResourceService<SphereResource>

/// The sphere service as the app makes it, with a cache of `cacheBytes`.
func makeSpheres(
  cacheBytes: Int = 1 << 20, limits: Spheres.Limits = .init(running: 1, waiting: 64),
  clock: @escaping @Sendable () -> Double = { 0 }, encoder: SphereResource.Encoder? = nil
) -> Spheres {
  ColdResourceService(
    encoder.map { SphereResource(encoder: $0) } ?? SphereResource(), name: "test.spheres",
    cacheBytes: cacheBytes, limits: limits, clock: clock)
}

/// The response to `target` (`/api/spheres/R/L...`), waiting for one computed off the caller's
/// thread.
private func answer(_ api: Spheres, _ request: Request) -> Response {
  let path = try! URLPath.segments(request.path).dropFirst(2)
  return api.respond(to: request, path: path, client: "127.0.0.1").eventually()
}

private func text(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

@Suite struct SphereResourceTests {
  @Test func theSeedURLAnswersTheSeedShape() {
    let api = makeSpheres()
    let response = answer(api, get("/api/spheres/1/2"))
    #expect(response.status == .ok)
    #expect(response.headers["Content-Type"] == "application/json")
    #expect(response.headers["ETag"]?.hasPrefix("\"spheres-") == true)
    let body = text(response)
    #expect(body.hasPrefix(#"[{"X":0,"Y":0,"Z":0,"R":-1,"L":0},{"X":"#))
    #expect(body.components(separatedBy: "\"L\":").count - 1 == 30)
  }

  @Test func aComputedBodyTellsItsTimingsAndACachedOneDoesNot() {
    let api = makeSpheres()
    let first = answer(api, get("/api/spheres/1/3", ["Accept-Encoding": "gzip"]))
    let timing = first.headers["Server-Timing"] ?? ""
    #expect(
      timing.hasPrefix("packing;dur=") && timing.contains("encode;dur=")
        && timing.contains("gzip;dur="))
    let second = answer(api, get("/api/spheres/1/3", ["Accept-Encoding": "gzip"]))
    #expect(second.headers["Server-Timing"] == nil && second.body == first.body)
  }

  @Test func binaryByAcceptOrSuffixHasTheCountInItsHeader() {
    let api = makeSpheres()
    for request in [
      get("/api/spheres/2/3", ["Accept": "application/octet-stream"]), get("/api/spheres/2/3.bin"),
    ] {
      let response = answer(api, request)
      #expect(response.status == .ok)
      #expect(response.headers["Content-Type"] == "application/octet-stream")
      #expect(response.body.count == 16 + 17 * 90)
      #expect(Array(response.body[0..<4]) == Array("PFSP".utf8))
      #expect(response.body[4] == 90 && response.body[5] == 0)
    }
    #expect(api.cache.statistics.entries == 1)
    let zipped = answer(api, get("/api/spheres/2/3.bin", ["Accept-Encoding": "gzip"]))
    #expect(zipped.headers["Content-Encoding"] == "gzip")
    #expect(zipped.headers["Content-Type"] == "application/octet-stream")
    let json = answer(api, get("/api/spheres/2/3.json", ["Accept": "application/octet-stream"]))
    #expect(json.headers["Content-Type"] == "application/json")
  }

  @Test func jsonIsGzippedWhenAskedAndTaggedApart() {
    let api = makeSpheres()
    let plain = answer(api, get("/api/spheres/1/4"))
    let zipped = answer(api, get("/api/spheres/1/4", ["Accept-Encoding": "gzip, br"]))
    #expect(zipped.headers["Content-Encoding"] == "gzip")
    #expect(Array(zipped.body.prefix(2)) == [0x1F, 0x8B])
    #expect(zipped.body.count * 2 < plain.body.count)
    #expect(zipped.headers["ETag"] != plain.headers["ETag"])
    #expect(plain.headers["Vary"] == "Accept, Accept-Encoding")
  }

  @Test func theSurfaceShellIsSmallerAndAMatchingETagGets304() {
    let api = makeSpheres()
    let all = answer(api, get("/api/spheres/1/5.bin"))
    let shell = answer(api, get("/api/spheres/1/5.bin?surface=1"))
    #expect(shell.body.count < all.body.count)
    let etag = shell.headers["ETag"]!
    let again = answer(api, get("/api/spheres/1/5.bin?surface=1", ["If-None-Match": etag]))
    #expect(again.status == .notModified && again.body.isEmpty)
    #expect(again.headers["ETag"] == etag)
  }

  @Test(arguments: [
    ("/api/spheres/0/7", "radius"), ("/api/spheres/-2/7", "radius"),
    ("/api/spheres/abc/7", "radius"), ("/api/spheres/1/11", "level"),
    ("/api/spheres/1/x", "level"), ("/api/spheres/1/7.png", "level"),
    ("/api/spheres/1/7?surface=2", "surface"),
  ])
  func badInputGets400NamingTheField(target: String, field: String) {
    let response = answer(makeSpheres(), get(target))
    #expect(response.status == .badRequest)
    #expect(text(response).contains("\"field\":\"\(field)\""))
  }

  @Test func concurrentRequestsForOneLevelComputeItOnce() {
    let api = makeSpheres(cacheBytes: 16 << 20)
    let group = DispatchGroup()
    let sizes = Mutex<[Int]>([])
    for _ in 0..<8 {
      DispatchQueue.global().async(group: group) {
        let response = answer(api, get("/api/spheres/1/6.bin"))
        sizes.withLock { $0.append(response.body.count) }
      }
    }
    group.wait()
    #expect(sizes.withLock { $0 } == Array(repeating: 16 + 17 * 3330, count: 8))
    let statistics = api.cache.statistics
    #expect(statistics.misses == 1)
    #expect(statistics.hits + statistics.coalesced == 7)
  }

  @Test func acceptNegotiationPrefersJSONUnlessBinaryRanksHigher() {
    #expect(SphereResource.prefersBinary("application/octet-stream"))
    #expect(SphereResource.prefersBinary("application/octet-stream, application/json;q=0.5"))
    #expect(!SphereResource.prefersBinary("application/json, application/octet-stream"))
    #expect(!SphereResource.prefersBinary("*/*"))
    #expect(!SphereResource.prefersBinary("application/octet-stream;q=0"))
    #expect(!SphereResource.prefersBinary(nil))
  }
}
