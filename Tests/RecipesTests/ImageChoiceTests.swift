import JSON
import Testing

@testable import Recipes

@Suite("Choosing a recipe's image: the largest picture the page states")
struct ImageChoiceTests {
  /// The main recipe's image on a page whose recipe has `own` (JSON) as its image and whose
  /// head holds `metas`.
  private func image(own: String, metas: String = "", url: String? = "https://example.com/r/1")
    throws -> String?
  {
    let html = RecipePages.page(
      head: metas
        + RecipePages.ldJSON(
          #"{"@type":"Recipe","name":"Dish","recipeIngredient":["x"],"image":\#(own)}"#))
    return try RecipePages.recipes(html, url: url).first?["image"]?.stringValue
  }

  private func size(_ url: String) -> [Int]? {
    ImageCandidate.sizeInAddress(url).map { [$0.width, $0.height] }
  }

  private func og(_ url: String, width: Int? = nil, height: Int? = nil) -> String {
    "<meta property=\"og:image\" content=\"\(url)\">"
      + (width.map { "<meta property=\"og:image:width\" content=\"\($0)\">" } ?? "")
      + (height.map { "<meta property=\"og:image:height\" content=\"\($0)\">" } ?? "")
  }

  @Test("sizes stated beside an ImageObject or a share image: the largest wins")
  func statedSizes() throws {
    #expect(
      try image(
        own: #"[{"@type":"ImageObject","url":"https://c.example/s.jpg","width":300,"height":200},"#
          + #"{"@type":"ImageObject","url":"https://c.example/l.jpg","width":"1200px","height":800}]"#
      ) == "https://c.example/l.jpg")
    #expect(
      try image(
        own: #"{"@type":"ImageObject","url":"https://c.example/s.jpg","width":600,"height":400}"#,
        metas: og("https://c.example/share.jpg", width: 1200, height: 630))
        == "https://c.example/share.jpg")
    // One side stated: a square of that side.
    #expect(
      try image(
        own: #"{"@type":"ImageObject","url":"https://c.example/s.jpg","width":1000}"#,
        metas: og("https://c.example/share.jpg", width: 1200, height: 630))
        == "https://c.example/s.jpg")
  }

  @Test("sizes written in the address: NNNxNNN anywhere, or w= and h= in the query")
  func sizesInAddress() throws {
    #expect(
      try image(
        own: #""https://c.example/pie.jpg""#, metas: og("https://c.example/pie-1200x630.jpg"))
        == "https://c.example/pie-1200x630.jpg")
    #expect(
      try image(
        own: #"["https://c.example/pie-720x720.jpg","https://c.example/pie-1200x1200.jpg"]"#)
        == "https://c.example/pie-1200x1200.jpg")
    #expect(
      try image(
        own: #""https://c.example/pie.jpg?w=960&h=540""#,
        metas: og("https://c.example/pie.jpg?w=960&h=960"))
        == "https://c.example/pie.jpg?w=960&h=960")
    #expect(size("https://x.example/crop-960x540/a.jpg") == [960, 540])
    #expect(size("https://x.example/a.jpg?width=2000&h=1000") == [2000, 1000])
    #expect(size("https://x.example/1x1/a-12x34.jpg?w=2") == nil)
    #expect(size("https://x.example/a-123456x200.jpg") == nil)
  }

  @Test("no sizes: the recipe's first image, before its others and the share image")
  func noSizes() throws {
    #expect(
      try image(
        own: #""https://example.com/uploads/burger-plated.jpg""#,
        metas: og("https://example.com/uploads/burger-overhead.jpg"))
        == "https://example.com/uploads/burger-plated.jpg")
    #expect(
      try image(own: #"["https://c.example/a.jpg","https://c.example/b.jpg"]"#)
        == "https://c.example/a.jpg")
    // Only share images: https before http, then page order.
    #expect(
      try image(
        own: "null", metas: og("http://c.example/a.jpg") + og("https://c.example/b.jpg"))
        == "https://c.example/b.jpg")
  }

  @Test("a logo or icon loses to any picture; an address with nothing to resolve it is dropped")
  func junkAndUnresolved() throws {
    #expect(
      try image(
        own: #"["https://c.example/img/logo.png","https://c.example/pie.jpg"]"#,
        metas: og("https://c.example/site-icon-1200x1200.png"))
        == "https://c.example/pie.jpg")
    #expect(ImageCandidate.isJunk("https://c.example/a/favicon.ico"))
    #expect(!ImageCandidate.isJunk("https://c.example/logos-of-cake/pie.jpg"))
    #expect(
      try image(own: #""/i/pie.jpg""#, metas: og("https://example.com/i/pie.jpg"), url: nil)
        == "https://example.com/i/pie.jpg")
    #expect(try image(own: #""/i/pie.jpg""#) == "https://example.com/i/pie.jpg")
  }

  @Test("no image stated: the page's first picture, past vector drawings, links and forms")
  func firstPictureOfContent() throws {
    let html = RecipePages.page(
      body: #"""
        <header><a href="/"><img src="/img/brand-mark.svg" alt="Home"></a>
          <a href="/account"><img src="/img/profile-link.png"></a>
          <form action="/search"><input name="q"><img class="go" src="/img/search.png"></form>
          <button><img src="/img/menu.png"></button></header>
        <h1>Lemonade</h1>
        <a href="/media/lemonade-large.jpg"><img src="/media/lemonade.jpg"></a>
        <h2>Ingredients</h2><ul><li>3 lemons</li><li>1 l water</li></ul>
        <h2>Method</h2><p>Squeeze the lemons.</p><p>Stir in the water.</p>
        """#)
    let recipe = try #require(try RecipePages.recipes(html).first)
    #expect(recipe["image"] == "https://example.com/media/lemonade.jpg")
  }
}
