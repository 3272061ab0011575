/// One ingredient line split into quantity, unit, name and note, keeping the original text.
///
/// "1 ½ cups flour, sifted" → quantity 1.5...1.5, unit "cup", name "flour", note "sifted".
/// A range ("2-3 eggs", "2 to 3 eggs") gives 2...3; no quantity gives nil. Units are given in
/// a canonical short form ("cup", "tbsp", "tsp", "g", "kg", "ml", "l", "oz", "lb", ...).
public struct IngredientLine: Equatable, Sendable {
  public var text: String
  public var quantity: ClosedRange<Double>?
  public var unit: String?
  public var name: String
  public var note: String?

  public init(
    text: String, quantity: ClosedRange<Double>?, unit: String?, name: String, note: String?
  ) {
    self.text = text
    self.quantity = quantity
    self.unit = unit
    self.name = name
    self.note = note
  }
}
