"""The documented Gymnasium example runs, and prints the same returns twice."""
import pathlib
import subprocess
import sys

EXAMPLE = pathlib.Path(__file__).resolve().parents[3] / "docs" / "examples" / "holes_gym.py"


def test_the_holes_example_plays_and_repeats_itself(server):
    def run():
        result = subprocess.run(
            [sys.executable, str(EXAMPLE), "--url", server.url, "--episodes", "1", "--steps", "150"],
            capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        return result.stdout

    first = run()
    assert first.startswith("random   seed 0: return ")
    assert "steering seed 0: return " in first
    assert run() == first


README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


def _readme_block(number):
    """The README's Python block `number` (0: the first)."""
    return README.read_text().split("```python\n")[number + 1].split("```", 1)[0]


def test_the_readme_fast_path_runs_and_leaves_no_session_behind(server, client):
    block = _readme_block(0)
    assert "make_vec" in block
    before = {s.id for s in client.sessions()}
    result = subprocess.run(
        [sys.executable, "-c", block.replace("http://127.0.0.1:8080", server.url)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert {s.id for s in client.sessions()} == before, "the example deleted its sessions"


def test_the_readme_example_runs_and_leaves_no_session_behind(server, client):
    block = _readme_block(1)
    before = {s.id for s in client.sessions()}
    result = subprocess.run(
        [sys.executable, "-c", block.replace("http://127.0.0.1:8080", server.url)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    x, y = (float(v) for v in result.stdout.strip().strip("()").split(","))
    assert x > 180 and y == 180, "a second of tilt to the right rolled the ball right"
    assert {s.id for s in client.sessions()} == before, "the example deleted its session"
