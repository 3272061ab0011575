"""Issue 17, findings 8 and 10 in headless Chromium: a page on another site cannot create
sessions with a no-cors POST, and a rebound DNS name gets 421, not our pages or sockets."""
import json
import pathlib
import urllib.request

import pytest

from axe import assert_accessible

REBIND = "rebind.example"
SHOTS = pathlib.Path(__file__).resolve().parent.parent.parent / "out" / "screenshots"


@pytest.fixture(scope="module")
def rebinding_browser(chromium):
    """Chromium resolving rebind.example to 127.0.0.1, as after a DNS-rebinding attack."""
    browser = chromium.launch(f"--host-resolver-rules=MAP {REBIND} 127.0.0.1")
    yield browser
    browser.close()


def session_count(server):
    with urllib.request.urlopen(server.url + "/api/sessions", timeout=10) as response:
        return json.loads(response.read())["count"]


def test_a_rebound_name_gets_421(playfield, rebinding_browser):
    page = rebinding_browser.new_page()
    response = page.goto(f"http://{REBIND}:{playfield.port}/sessions")
    assert response.status == 421
    assert "allow-host" in page.content()
    response = page.goto(f"http://localhost:{playfield.port}/healthz")
    assert response.status == 200
    page.close()


def test_a_page_opened_by_a_refused_name_says_how_to_allow_it(playfield, rebinding_browser):
    # Issue 36: "Cannot start a session: the server answered 421" and nothing more.
    page = rebinding_browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"http://{REBIND}:{playfield.port}/demos/maze?new")
    notice = page.locator(".demo-notice")
    notice.wait_for(state="visible", timeout=10_000)
    text = notice.inner_text()
    assert text.startswith("Cannot start a session: this server does not answer to the name rebind.example")
    assert "--allow-host rebind.example" in text and "ALLOW_HOST=rebind.example" in text
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "refused-host-phone.png"))
    assert_accessible(page)
    page.close()


def test_a_rebound_page_cannot_open_a_session_socket(playfield, rebinding_browser):
    page = rebinding_browser.new_page()
    page.goto(f"http://localhost:{playfield.port}/healthz")
    created = page.evaluate("""async () => {
      const r = await fetch('/api/sessions', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                              body: JSON.stringify({kind: 'maze'})});
      return r.json();
    }""")
    # The rebound page is served a 421 error body, so from it even a plain fetch fails.
    page.goto(f"http://{REBIND}:{playfield.port}/healthz")
    outcome = page.evaluate("""id => new Promise(resolve => {
      const socket = new WebSocket(`ws://${location.host}/ws/sessions/${id}`);
      socket.onopen = () => resolve('open');
      socket.onerror = () => resolve('refused');
    })""", created["id"])
    assert outcome == "refused"
    page.close()


def test_another_site_cannot_post_an_untyped_body(playfield, rebinding_browser):
    # localhost and 127.0.0.1 are different origins: the page plays the attacking site.
    page = rebinding_browser.new_page()
    page.goto(f"http://localhost:{playfield.port}/healthz")
    before = session_count(playfield)
    page.evaluate("""async target => {
      for (let i = 0; i < 5; i++) {
        await fetch(target + '/api/sessions', {method: 'POST', mode: 'no-cors',
                                               body: new Blob(['{"kind":"maze"}'])});
        await fetch(target + '/api/sessions', {method: 'POST', mode: 'no-cors',
                                               headers: {'Content-Type': 'text/plain'},
                                               body: '{"kind":"maze"}'});
      }
    }""", playfield.url)
    assert session_count(playfield) == before
    # The typed request needs a preflight, which fails, so it never arrives either.
    refused = page.evaluate("""async target => {
      try {
        await fetch(target + '/api/sessions', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                               body: '{"kind":"maze"}'});
        return false;
      } catch (error) { return true; }
    }""", playfield.url)
    assert refused
    assert session_count(playfield) == before
    page.close()


def test_this_site_may_post_an_untyped_body(playfield, rebinding_browser):
    page = rebinding_browser.new_page()
    page.goto(playfield.url + "/healthz")
    before = session_count(playfield)
    status = page.evaluate("""async () => (await fetch('/api/sessions', {method: 'POST',
                                          body: new Blob(['{"kind":"maze"}'])})).status""")
    assert status == 201
    assert session_count(playfield) == before + 1
    page.close()


def test_another_sites_page_cannot_open_the_batch_or_session_sockets(playfield, rebinding_browser):
    # localhost and 127.0.0.1 are different origins: a page of the one plays the attacking site
    # against the other, with the session's control token in hand.
    status, _, session = _post(playfield, {"kind": "holes", "clock": "on-demand"})
    assert status == 201, session
    target = playfield.ws_url
    paths = ["/ws/batch", f"/ws/sessions/{session['id']}?token={session['token']}",
             f"/ws/sessions/{session['id']}", f"/ws/replays/{session['id']}"]
    outcomes = {}
    for origin in [f"http://localhost:{playfield.port}", playfield.url]:
        page = rebinding_browser.new_page()
        page.goto(origin + "/healthz")
        outcomes[origin] = page.evaluate(_OPEN_EACH, [target + path for path in paths])
        page.close()
    assert outcomes[f"http://localhost:{playfield.port}"] == ["refused"] * len(paths)
    assert outcomes[playfield.url] == ["open"] * len(paths)


_OPEN_EACH = """urls => Promise.all(urls.map(url => new Promise(resolve => {
  const socket = new WebSocket(url);
  socket.onopen = () => { resolve('open'); socket.close(); };
  socket.onerror = () => resolve('refused');
})))"""


def _post(server, body):
    request = urllib.request.Request(server.url + "/api/sessions", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.headers, json.loads(response.read())
