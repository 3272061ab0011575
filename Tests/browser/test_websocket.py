"""Chromium's own WebSocket against /ws/echo: text, binary, and permessage-deflate."""

ECHO = """
async () => {
  const socket = new WebSocket(`ws://${location.host}/ws/echo`, ["chat"]);
  socket.binaryType = "arraybuffer";
  await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
  const replies = [];
  const next = () => new Promise((resolve) => { socket.onmessage = (event) => resolve(event.data); });
  const text = "héllo, wörld ".repeat(2000);
  socket.send(text);
  replies.push((await next()) === text);
  const bytes = new Uint8Array(70000).map((_, i) => (i * 7) & 255);
  socket.send(bytes);
  const echoed = new Uint8Array(await next());
  replies.push(echoed.length === bytes.length && echoed.every((b, i) => b === bytes[i]));
  socket.send("");
  replies.push((await next()) === "");
  const result = { replies, extensions: socket.extensions, protocol: socket.protocol };
  socket.close(1000);
  return result;
}
"""


def test_chromium_echoes_text_binary_and_compressed(playfield, watched):
    page = watched()
    page.page.goto(playfield.url + "/")
    result = page.page.evaluate(ECHO)
    assert result["replies"] == [True, True, True]
    assert result["protocol"] == "chat"
    assert result["extensions"].startswith("permessage-deflate"), result["extensions"]
