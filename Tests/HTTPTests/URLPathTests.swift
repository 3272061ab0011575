import Testing

@testable import HTTP

@Suite struct URLPathTests {
  @Test(arguments: [
    ("/", []),
    ("/a/b", ["a", "b"]),
    ("//a///b/", ["a", "b"]),
    ("/a/./b", ["a", "b"]),
    ("/a/../b", ["b"]),
    ("/a/%2e%2E/b", ["b"]),
    ("/with%20space", ["with space"]),
    ("/caf%C3%A9", ["caf\u{e9}"]),
    ("/%7Euser", ["~user"]),
  ])
  func segments(_ raw: String, _ expected: [String]) throws {
    #expect(try URLPath.segments(raw[...]) == expected)
  }

  @Test(arguments: [
    "/..", "/../x", "/a/../..", "/%2e%2e/x", "/.%2E/x", "/a%2fb", "/a%2Fb", "/a\\b", "/a%5cb",
    "/a%00b", "/%zz", "/a%", "/a%2", "/%ff", "/%c0%ae", "relative", "",
  ])
  func refused(_ raw: String) {
    #expect(throws: HTTPError.self) { try URLPath.segments(raw[...]) }
  }

  @Test(arguments: [
    ("/", true), ("/a/", true), ("/a/.", true), ("/a/..", true), ("/a/%2e", true),
    ("/a/.%2E", true), ("/a", false), ("/a.txt", false), ("/.hidden", false), ("/a/...", false),
  ])
  func folderForm(_ raw: String, _ expected: Bool) {
    #expect(URLPath.isFolderForm(raw[...]) == expected)
  }
}
