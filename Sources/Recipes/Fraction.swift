/// Unicode vulgar fractions ("½") and their values.
enum Fraction {
  static func value(_ scalar: Unicode.Scalar) -> Double? {
    switch scalar {
    case "½": 0.5
    case "⅓": 1.0 / 3
    case "⅔": 2.0 / 3
    case "¼": 0.25
    case "¾": 0.75
    case "⅕": 0.2
    case "⅖": 0.4
    case "⅗": 0.6
    case "⅘": 0.8
    case "⅙": 1.0 / 6
    case "⅚": 5.0 / 6
    case "⅛": 0.125
    case "⅜": 0.375
    case "⅝": 0.625
    case "⅞": 0.875
    default: nil
    }
  }
}
