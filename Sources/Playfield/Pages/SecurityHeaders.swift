import HTTP

/// Headers every HTML response carries: no sniffing, a strict content policy, and who may
/// frame the page.
enum SecurityHeaders {
  /// Who may put the page in a frame.
  enum Framing {
    /// Site pages: only Playfield itself.
    case sameOrigin
    /// Embed pages: any site.
    case anyone
  }

  static func add(to headers: inout HTTPHeaders, framing: Framing) {
    // NB: Chromium does not let a bare `*` match every embedding page; naming http: and https:
    // as well lets any web page frame an embed.
    let ancestors = framing == .sameOrigin ? "'self'" : "* http: https:"
    headers.set("X-Content-Type-Options", "nosniff")
    headers.set(
      "Content-Security-Policy",
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
        + "frame-ancestors \(ancestors)")
    // NB: a page's address may name a session (and once held tokens); other sites learn only
    // our origin, never a path or query, and nothing goes from HTTPS to HTTP.
    headers.set("Referrer-Policy", "strict-origin")
    if framing == .sameOrigin { headers.set("X-Frame-Options", "SAMEORIGIN") }
  }
}
