"""The route table's shared answers over a real socket: HEAD without a body, 405 with
`Allow`, OPTIONS, and a CORS preflight for what other sites may read (issue 21)."""
import http.client


def exchange(server, method, path, headers=None):
    """One request; returns (status, headers, body bytes as received)."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
    connection.request(method, path, headers={"Host": "localhost", **(headers or {})})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, response.headers, body


def test_head_answers_like_get_without_a_body(playfield):
    for path in ["/api/demos", "/healthz", "/css/playfield.css", "/tiles/mandelbrot/0/0/0.png",
                 "/api/spheres/1/0", "/oembed?url=http%3A%2F%2Fh%2Fdemos%2Fmaze"]:
        get_status, get_headers, get_body = exchange(playfield, "GET", path)
        head_status, head_headers, head_body = exchange(playfield, "HEAD", path)
        assert (head_status, head_body) == (get_status, b""), path
        assert get_body and head_headers["Content-Length"] == str(len(get_body)), path
        assert head_headers["Content-Type"] == get_headers["Content-Type"], path


def test_a_wrong_method_is_405_with_the_paths_methods(playfield):
    cases = [
        ("DELETE", "/api/demos", "GET, HEAD, OPTIONS"),
        ("PUT", "/api/sessions", "GET, HEAD, POST, OPTIONS"),
        ("POST", "/api/sessions/anything", "GET, HEAD, DELETE, OPTIONS"),
        ("PATCH", "/api/mazes/corner", "GET, HEAD, PUT, DELETE, OPTIONS"),
        ("POST", "/tiles/mandelbrot/0/0/0.png", "GET, HEAD, OPTIONS"),
        ("DELETE", "/css/playfield.css", "GET, HEAD, OPTIONS"),
        ("POST", "/ws/sessions/anything", "GET, HEAD, OPTIONS"),
    ]
    for method, path, allow in cases:
        status, headers, _ = exchange(playfield, method, path)
        assert (status, headers["Allow"]) == (405, allow), (method, path)
    status, _, _ = exchange(playfield, "DELETE", "/no/such/thing")
    assert status == 404


def test_options_lists_the_methods_and_grants_cors_only_where_other_sites_may_read(playfield):
    status, headers, body = exchange(playfield, "OPTIONS", "/api/sessions")
    assert (status, headers["Allow"], body) == (204, "GET, HEAD, POST, OPTIONS", b"")
    preflight = {"Origin": "https://elsewhere.example", "Access-Control-Request-Method": "GET"}
    status, headers, _ = exchange(playfield, "OPTIONS", "/tiles/mandelbrot/0/0/0.png", preflight)
    assert status == 204 and headers["Access-Control-Allow-Origin"] == "*"
    assert headers["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
    status, headers, _ = exchange(playfield, "OPTIONS", "/api/sessions", preflight)
    assert status == 204 and headers["Access-Control-Allow-Origin"] is None
    status, headers, _ = exchange(playfield, "OPTIONS", "*")
    # PATCH: the recipe book's tags (`PATCH /api/recipes/ID`).
    assert status == 204 and headers["Allow"] == "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"
