import JSON
import Testing

@testable import Recipes

@Suite("Choosing a recipe's image between its own and the page's share image")
struct ImageChoiceTests {
  private func image(own: String, share: String) throws -> String? {
    let html = RecipePages.page(
      head: "<meta property=\"og:image\" content=\"\(share)\">"
        + RecipePages.ldJSON(
          #"{"@type":"Recipe","name":"Dish","recipeIngredient":["x"],"image":"\#(own)"}"#))
    return try RecipePages.recipes(html).first?["image"]?.stringValue
  }

  @Test("the same picture: the recipe's own, unless the share image's path asks for more pixels")
  func samePicture() throws {
    #expect(
      try image(
        own: "https://cdn.example/r/crop-960x540/pie.jpg",
        share: "https://cdn.example/r/crop-958x539/pie.jpg")
        == "https://cdn.example/r/crop-960x540/pie.jpg")
    #expect(
      try image(
        own: "https://cdn.example/mncrop/300/200/pie.jpg",
        share: "https://cdn.example/mncrop/600/315/pie.jpg")
        == "https://cdn.example/mncrop/600/315/pie.jpg")
    #expect(
      try image(
        own: "https://cdn.example/pie/650_1200.jpg", share: "https://cdn.example/pie/840_560.jpg")
        == "https://cdn.example/pie/650_1200.jpg")
    #expect(
      try image(own: "https://cdn.example/1x1/7308.jpg?w=2", share: "https://cdn.example/7308.jpg")
        == "https://cdn.example/1x1/7308.jpg?w=2")
  }

  @Test("another picture, or an own image with no address to resolve it against: the share image")
  func otherPicture() throws {
    #expect(
      try image(
        own: "https://example.com/uploads/burger-plated.jpg",
        share: "https://example.com/uploads/burger-overhead.jpg")
        == "https://example.com/uploads/burger-overhead.jpg")
    let html = RecipePages.page(
      head: "<meta property=\"og:image\" content=\"https://example.com/i/pie.jpg\">"
        + RecipePages.ldJSON(
          #"{"@type":"Recipe","name":"Dish","recipeIngredient":["x"],"image":"/i/pie.jpg"}"#))
    #expect(
      try RecipePages.recipes(html, url: nil).first?["image"] == "https://example.com/i/pie.jpg")
  }

  @Test("picture names drop extensions and sizes; sizes come from the path only")
  func names() {
    #expect(PictureName.key("https://x.example/a/DSC_0058-500x500.jpg") == "dsc_0058")
    #expect(PictureName.key("https://x.example/salmorejo/650_1200.jpg") == "salmorejo")
    #expect(PictureName.area("https://x.example/crop-960x540/a.jpg") == 518_400.0)
    #expect(PictureName.area("https://x.example/a.jpg?w=2000&h=1000&poi=[1000,1000]") == nil)
  }
}
