/// HTTP dates (RFC 9110 §5.6.7): formats IMF-fixdate and parses all three historic forms.
///
/// Pure arithmetic on seconds since 1970; the caller supplies the time.
public enum HTTPDate {
  static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
  static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `Sun, 06 Nov 1994 08:49:37 GMT` for the given whole seconds since 1970.
  public static func format(_ seconds: Int64) -> String {
    let dayNumber = floorDiv(seconds, 86_400)
    let secondOfDay = Int(seconds - dayNumber * 86_400)
    let (year, month, day) = civil(fromDays: dayNumber)
    let weekday = days[Int(((dayNumber % 7) + 7) % 7)]
    return "\(weekday), \(pad(day)) \(months[month - 1]) \(year) "
      + "\(pad(secondOfDay / 3600)):\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60)) GMT"
  }

  /// Seconds since 1970 for an IMF-fixdate, RFC 850 or asctime date; nil when invalid.
  public static func parse(_ text: String) -> Int64? {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
    var day: Int?
    var month: Int?
    var year: Int?
    var time: [Int]?
    switch words.count {
    case 5 where words[4] == "GMT" && words[1].contains("-"):
      // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
      let parts = words[1].split(separator: "-").map(String.init)
      guard parts.count == 3 else { return nil }
      day = Int(parts[0])
      month = months.firstIndex(of: parts[1]).map { $0 + 1 }
      year = Int(parts[2]).map { $0 < 70 ? 2000 + $0 : ($0 < 100 ? 1900 + $0 : $0) }
      time = clock(words[2])
    case 6 where words[5] == "GMT":
      // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
      day = Int(words[1])
      month = months.firstIndex(of: words[2]).map { $0 + 1 }
      year = Int(words[3])
      time = clock(words[4])
    case 5:
      // asctime: Sun Nov  6 08:49:37 1994
      month = months.firstIndex(of: words[1]).map { $0 + 1 }
      day = Int(words[2])
      time = clock(words[3])
      year = Int(words[4])
    default:
      return nil
    }
    guard let day, let month, let year, let time, (1...31).contains(day), year >= 1970,
      year < 10_000
    else { return nil }
    return days(fromCivil: year, month, day) * 86_400
      + Int64(time[0] * 3600 + time[1] * 60 + time[2])
  }

  private static func clock(_ text: String) -> [Int]? {
    let parts = text.split(separator: ":").compactMap { Int($0) }
    guard parts.count == 3, parts[0] < 24, parts[1] < 60, parts[2] < 61 else { return nil }
    return parts
  }

  private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    a >= 0 ? a / b : -((-a + b - 1) / b)
  }

  /// Howard Hinnant's `civil_from_days`.
  static func civil(fromDays z: Int64) -> (year: Int, month: Int, day: Int) {
    let z = z + 719_468
    let era = floorDiv(z, 146_097)
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (Int(yoe + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
  }

  /// Howard Hinnant's `days_from_civil`.
  static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = floorDiv(y, 400)
    let yoe = y - era * 400
    let m = Int64(month)
    let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }
}
