import CurlShim
import Foundation
import HTTP
import Synchronization

/// Fetches the page of a URL import (`POST /api/recipes/import?url=URL` with no body), guarded:
/// http and https only, through no proxy, every connection's address checked after DNS by
/// `FetchAddressPolicy` (on every redirect, each followed here, at most `maxRedirects`), at
/// most `maxBytes` of body (after decompression) and `timeout` seconds in all. Hosts in
/// `allowedHosts` (`--recipe-fetch-allow-host`, for tests) may be at any address.
///
/// Blocking: it runs on a fetch worker (`RecipeAPI.fetches`), never on an event loop.
struct RecipeFetcher: Sendable {
  var allowedHosts: Set<String> = []
  var maxBytes = 4 << 20
  var timeout = 10.0
  var maxRedirects = 5

  /// A page fetched: its body, declared type, and the URL it came from after redirects.
  struct Page: Sendable {
    var body: [UInt8]
    var contentType: String
    var url: String
  }

  /// What one transfer collects, shared with libcurl's callbacks.
  private final class Transfer {
    let allowAnyAddress: Bool
    let maxBytes: Int
    var body: [UInt8] = []
    var tooLarge = false

    init(allowAnyAddress: Bool, maxBytes: Int) {
      self.allowAnyAddress = allowAnyAddress
      self.maxBytes = maxBytes
    }
  }

  /// The page at `url`, or an error that says what went wrong (a refused address: 403; a page
  /// that is not there or answered an error: 502; too slow: 504; too large: 422).
  func fetch(_ url: String) throws(APIError) -> Page {
    let start = ContinuousClock.now
    var current = url
    for _ in 0...maxRedirects {
      let host = try Self.host(of: current)
      let spent = ContinuousClock.now - start
      let left =
        timeout - Double(spent.components.seconds) - Double(spent.components.attoseconds) / 1e18
      guard left > 0 else { throw timedOut() }
      let transfer = Transfer(
        allowAnyAddress: allowedHosts.contains(host), maxBytes: maxBytes)
      var result = curl_shim_result()
      withExtendedLifetime(transfer) {
        curl_shim_get(
          current, max(1, Int(left * 1000)), Int64(maxBytes), "Playfield recipe import",
          Self.check, Self.sink, Unmanaged.passUnretained(transfer).toOpaque(), &result)
      }
      if result.refused != 0 {
        throw APIError(
          .forbidden,
          "\(host) is at a private, loopback, link-local or otherwise non-public address: "
            + "a URL import fetches public pages only")
      }
      if transfer.tooLarge || result.code == 63 {  // CURLE_FILESIZE_EXCEEDED
        throw APIError(
          HTTPStatus(422), "the page is larger than \(maxBytes) bytes (--recipe-fetch-bytes)")
      }
      if result.code == 28 { throw timedOut() }  // CURLE_OPERATION_TIMEDOUT
      guard result.code == 0 else {
        throw APIError(
          HTTPStatus(502), "could not fetch \(current): \(Self.text(result.error))")
      }
      if (300..<400).contains(result.status), !Self.text(result.redirect).isEmpty {
        current = Self.text(result.redirect)
        continue
      }
      guard (200..<300).contains(result.status) else {
        throw APIError(HTTPStatus(502), "\(current) answered HTTP \(result.status)")
      }
      return Page(body: transfer.body, contentType: Self.text(result.content_type), url: current)
    }
    throw APIError(HTTPStatus(502), "\(url) redirects more than \(maxRedirects) times")
  }

  private func timedOut() -> APIError {
    APIError(
      HTTPStatus(504),
      "the page did not arrive within \(timeout.shown) seconds (--recipe-fetch-timeout)")
  }

  /// The host of an http or https URL, lowercased, without brackets; 400 for anything else.
  static func host(of url: String) throws(APIError) -> String {
    guard let components = URLComponents(string: url),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty, components.user == nil,
      components.password == nil
    else {
      throw APIError(
        .badRequest, "url must be an http:// or https:// address of a page, not \(url)",
        field: "url")
    }
    return host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
  }

  private static func text<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }

  private static let check: curl_shim_address_check = { context, address, _ in
    guard let context, let address else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    if transfer.allowAnyAddress { return 1 }
    let socketAddress = UnsafeRawPointer(address).assumingMemoryBound(to: sockaddr.self)
    return FetchAddressPolicy.isPublic(addressBytes(socketAddress)) ? 1 : 0
  }

  private static let sink: curl_shim_sink = { context, data, length in
    guard let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    guard transfer.body.count + length <= transfer.maxBytes else {
      transfer.tooLarge = true
      return 0
    }
    if let data, length > 0 {
      data.withMemoryRebound(to: UInt8.self, capacity: length) {
        transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
      }
    }
    return 1
  }

  /// The 4 or 16 bytes of an IPv4 or IPv6 socket address; none for another family.
  static func addressBytes(_ address: UnsafePointer<sockaddr>) -> [UInt8] {
    switch Int32(address.pointee.sa_family) {
    case AF_INET:
      return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }
      }
    case AF_INET6:
      return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
        withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
      }
    default:
      return []
    }
  }
}
