"""The client is typed (issue 36, item 9): `mypy --strict` is clean on its source, and a
program that uses the installed package sees its real types (it ships `py.typed`), not `Any`."""
import pathlib
import subprocess
import sys
import tempfile

SOURCE = pathlib.Path(__file__).resolve().parents[1] / "src"


def mypy(*args, cwd=None):
    with tempfile.TemporaryDirectory() as cache:
        return subprocess.run(
            [sys.executable, "-m", "mypy", "--cache-dir", cache, "--no-color-output", *args],
            capture_output=True, text=True, timeout=300, cwd=cwd)


def test_mypy_strict_is_clean_on_the_client():
    result = mypy("--strict", str(SOURCE))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_a_program_using_the_package_sees_its_types():
    program = '''
from playfield_client import Client, Session
from playfield_client.gym import PlayfieldHolesEnv

client = Client("http://127.0.0.1:8080")
info = client.create_session("maze")
wrong: int = info                         # SessionInfo is not int
session: Session = client.connect(info)
tick: str = session.tick                  # an int
session.tilt("left", 0)                   # x is a float
reveal_type(PlayfieldHolesEnv().step)
'''
    with tempfile.TemporaryDirectory() as directory:
        path = pathlib.Path(directory) / "program.py"
        path.write_text(program)
        result = mypy("--strict", "program.py", cwd=directory)
    out = result.stdout
    assert "missing library stubs or py.typed" not in out, out
    assert 'Incompatible types in assignment (expression has type "SessionInfo", variable has type "int")' in out, out
    assert 'expression has type "int", variable has type "str"' in out, out
    assert 'Argument 1 to "tilt" of "Session" has incompatible type "str"; expected "float"' in out, out
    assert "typing.SupportsFloat, bool, bool, dict[str, Any]]" in out, out  # step's result
