import Recipes
import Testing

@Suite("Ingredient lines")
struct IngredientLineTests {
  @Test(
    "quantity, unit, name and note",
    arguments: [
      ("2 eggs", 2.0...2.0, nil, "eggs", nil),
      ("1 ½ cups flour, sifted", 1.5...1.5, "cup", "flour", "sifted"),
      ("1½ cups flour", 1.5...1.5, "cup", "flour", nil),
      ("½ tsp salt", 0.5...0.5, "tsp", "salt", nil),
      ("1 1/2 Tbsp. olive oil", 1.5...1.5, "tbsp", "olive oil", nil),
      ("3/4 cup milk", 0.75...0.75, "cup", "milk", nil),
      ("2-3 cloves garlic, minced", 2.0...3.0, "clove", "garlic", "minced"),
      ("2 to 3 large eggs", 2.0...3.0, nil, "large eggs", nil),
      ("1,5 kg potatoes", 1.5...1.5, "kg", "potatoes", nil),
      ("200 g butter (softened)", 200.0...200.0, "g", "butter", "softened"),
      ("4 fl. oz cream", 4.0...4.0, "fl oz", "cream", nil),
      ("2 cups of water", 2.0...2.0, "cup", "water", nil),
      ("1 garlic bulb", 1.0...1.0, nil, "garlic bulb", nil),
    ] as [(String, ClosedRange<Double>, String?, String, String?)])
  func parses(
    text: String, quantity: ClosedRange<Double>, unit: String?, name: String, note: String?
  ) {
    let line = IngredientLine.parse(text)
    #expect(line.text == text)
    #expect(line.quantity == quantity)
    #expect(line.unit == unit)
    #expect(line.name == name)
    #expect(line.note == note)
  }

  @Test("no quantity: all name, or a unit word alone")
  func noQuantity() {
    #expect(
      IngredientLine.parse("salt and pepper, to taste")
        == IngredientLine(
          text: "salt and pepper, to taste", quantity: nil, unit: nil, name: "salt and pepper",
          note: "to taste"))
    let pinch = IngredientLine.parse("pinch of nutmeg")
    #expect(pinch.unit == "pinch")
    #expect(pinch.name == "nutmeg")
    #expect(IngredientLine.parse("").name == "")
  }
}
