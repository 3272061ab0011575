"""Issue 17, finding 1 in headless Chromium: two browsers on one address are two clients (each
gets its own `playfield_client` family), so one tab's sessions do not use up the other's quota."""
import pytest

CREATE_AND_WATCH = """async () => {
  const response = await fetch('/api/sessions', {
    method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({kind: 'maze'})});
  const body = await response.json();
  if (response.status !== 201) return {status: response.status, error: body.error};
  // Watched, so the server cannot park it to make room.
  const socket = new WebSocket(`ws://${location.host}/ws/sessions/${body.id}`);
  await new Promise((resolve) => socket.addEventListener('message', resolve, {once: true}));
  (window.sockets ??= []).push(socket);
  return {status: response.status};
}"""


@pytest.fixture
def one_session_each(server_module):
    server = server_module.Playfield("--sessions-per-client", "1")
    yield server
    server.stop()


def test_two_browser_contexts_get_separate_quotas(browser, one_session_each):
    server = one_session_each
    contexts = [browser.new_context(), browser.new_context()]
    try:
        pages = [context.new_page() for context in contexts]
        for page in pages:
            assert page.goto(server.url + "/sessions").status == 200
        cookies = [context.cookies()[0] for context in contexts]
        assert [c["name"] for c in cookies] == ["playfield_client"] * 2
        assert cookies[0]["value"] != cookies[1]["value"]
        assert all(c["httpOnly"] and c["sameSite"] == "Strict" and c["path"] == "/" for c in cookies)
        assert pages[0].evaluate("document.cookie") == "", "scripts cannot read the family"

        first, second = pages
        assert first.evaluate(CREATE_AND_WATCH)["status"] == 201
        refused = first.evaluate(CREATE_AND_WATCH)
        assert refused["status"] == 429 and "1 live sessions" in refused["error"]
        # The other browser is another client: its quota is untouched.
        assert second.evaluate(CREATE_AND_WATCH)["status"] == 201
        assert second.evaluate(CREATE_AND_WATCH)["status"] == 429
    finally:
        for context in contexts:
            context.close()
