import Testing

@testable import Playfield

@Suite struct PrometheusTextTests {
  @Test func writesFamiliesWithEscapedLabelsAndExactNumbers() {
    var out = PrometheusText()
    out.family("refusals_total", .counter, "Refused, by limit.\nSecond line \\ end.")
    out.sample("refusals_total", [("limit", "a\"b\\c\nd")], 3)
    out.single("tick_work_seconds", .gauge, "Work.", 0.00125)
    out.labelled("jobs", .gauge, "Jobs.", label: "kind", ["b": 2, "a": 1])
    out.sample("x", [], .nan)
    out.sample("x", [("q", "1")], .infinity)
    out.sample("x", [], -.infinity)
    out.sample("x", [], 12_345_678_901)
    #expect(
      out.text == """
        # HELP playfield_refusals_total Refused, by limit.\\nSecond line \\\\ end.
        # TYPE playfield_refusals_total counter
        playfield_refusals_total{limit="a\\"b\\\\c\\nd"} 3
        # HELP playfield_tick_work_seconds Work.
        # TYPE playfield_tick_work_seconds gauge
        playfield_tick_work_seconds 0.00125
        # HELP playfield_jobs Jobs.
        # TYPE playfield_jobs gauge
        playfield_jobs{kind="a"} 1
        playfield_jobs{kind="b"} 2
        playfield_x NaN
        playfield_x{q="1"} +Inf
        playfield_x -Inf
        playfield_x 12345678901

        """)
  }

  @Test func theAppsMetricsAreOneFamilyPerName() throws {
    let app = try TestApplication()
    let response = app.request(.get, "/metrics")
    #expect(response.status == .ok)
    #expect(response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
    let text = String(decoding: response.body, as: UTF8.self)
    let types = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }
    let names = types.map { $0.split(separator: " ")[2] }
    #expect(Set(names).count == names.count, "no family declared twice")
    #expect(names.contains("playfield_ticks_total"))
    #expect(text.contains("playfield_sessions{state=\"live\"} 0\n"))
  }
}
