"""Issue 17, finding 5: a maze belongs to whoever saved it (a token), and one client cannot
fill the table."""
from helpers import request


CELLS = ["#..#", "....", "#..#"]


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def test_put_and_delete_need_the_owner_token(playfield):
    url = playfield.url + "/api/mazes/owned"
    status, _, saved = request(url, "PUT", {"cells": CELLS})
    assert status == 200, saved
    token = saved["token"]
    assert len(token) == 22

    status, _, answer = request(url, "PUT", {"cells": ["####"]})
    assert status == 403, answer
    assert request(url, "PUT", {"cells": ["####"]}, bearer("not-the-token"))[0] == 403
    assert request(url, "DELETE")[0] == 403
    assert request(url + "?token=wrong", "DELETE")[0] == 403
    assert request(url)[2]["cells"] == CELLS

    status, _, replaced = request(url, "PUT", {"cells": ["####"]}, bearer(token))
    assert status == 200 and replaced["cells"] == ["####"]
    assert "token" not in replaced
    assert request(url + f"?token={token}", "DELETE")[0] == 204
    assert request(url)[0] == 404


def test_one_client_saves_at_most_twenty(start_playfield):
    server = start_playfield()
    tokens = []
    for index in range(20):
        status, _, saved = request(server.url + f"/api/mazes/flood{index}", "PUT", {"cells": CELLS})
        assert status == 200, saved
        tokens.append(saved["token"])
    status, headers, answer = request(server.url + "/api/mazes/flood20", "PUT", {"cells": CELLS})
    assert status == 429, answer
    assert "20" in answer["error"]
    # Replacing one's own and deleting to make room still work.
    assert request(server.url + "/api/mazes/flood0", "PUT", {"cells": ["####"]}, bearer(tokens[0]))[0] == 200
    assert request(server.url + "/api/mazes/flood1", "DELETE", headers=bearer(tokens[1]))[0] == 204
    assert request(server.url + "/api/mazes/flood20", "PUT", {"cells": CELLS})[0] == 200
