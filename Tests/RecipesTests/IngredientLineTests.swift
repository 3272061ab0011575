import Recipes
import Testing

@Suite struct IngredientLineTests {
  @Test func keepsTheOriginalText() {
    #expect(IngredientLine.parse("2 eggs").text == "2 eggs")
  }
}
