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
