"""Client: the recipe book (import a page or JSON-LD, list, get, export and import back)."""
import json

import pytest

from playfield_client import Client, HTTPError

PAGE = """<html><head><script type="application/ld+json">
{"@context": "https://schema.org", "@type": "Recipe", "name": "Flatbread",
 "recipeIngredient": ["500 g flour", "300 ml water"], "recipeYield": "4",
 "recipeInstructions": [{"@type": "HowToStep", "text": "Knead 10 minutes."}]}
</script></head></html>"""


def test_import_list_get_export_and_import_back(start_server):
    client = Client(start_server().url)
    preview = client.import_recipe(PAGE, url="https://example.com/flatbread")
    assert preview["name"] == "Flatbread" and "id" not in preview
    saved = client.import_recipe(PAGE, save=True, tags=["bread"])
    token = saved["book"]["token"]
    soup = client.import_recipe({"@context": "https://schema.org", "@type": "Recipe",
                                 "name": "Soup", "recipeIngredient": ["1 l stock"]},
                                save=True, token=token)
    assert [r["name"] for r in client.recipes()] == ["Flatbread", "Soup"]
    assert [r["id"] for r in client.recipes(q="stock", token=token)] == [soup["id"]]
    assert [r["id"] for r in client.recipes(tag="bread")] == [saved["id"]]
    assert client.recipe(saved["id"])["recipeIngredient"] == ["500 g flour", "300 ml water"]
    exported = client.export_recipes(token=token)
    assert len(exported["recipes"]) == 2
    other = Client(start_server().url)
    answer = other.import_recipes(exported)
    assert answer["imported"] == 2
    assert other.export_recipes() == exported


@pytest.mark.slow
def test_a_book_larger_than_one_import_goes_back_in_parts_unchanged(start_server):
    """A book's export may pass the 1 MiB one import may send (six recipes of about 238 KB
    here); `import_recipes` sends it in parts, in order, and waits out the imports a minute
    allows (3 here, so the last part waits for its minute). (Before, the server answered 413
    and a book over 1 MiB could not be brought back from its own export.)"""
    args = ("--recipe-imports-per-minute", "3")
    owner = Client(start_server(args=args).url)
    book = {"playfield": "recipe-book", "version": 1, "recipes": [
        {"recipe": {"@context": "https://schema.org", "@type": "Recipe", "name": f"Soup {n}",
                    "recipeIngredient": ["1 onion"], "description": f"{n} " + "simmer " * 34_000},
         "tags": [f"t{n}"]} for n in range(6)]}
    parts = owner._book_parts(book, 1_000_000)
    assert [len(part["recipes"]) for part in parts] == [4, 2]
    assert owner.import_recipes(book)["imported"] == 6
    exported = owner.export_recipes()
    assert len(json.dumps(exported).encode()) > 1 << 20
    with pytest.raises(HTTPError) as whole:
        owner._request("POST", "/api/recipes/import", data=json.dumps(exported).encode(),
                       content_type="application/json")
    assert whole.value.status == 413
    other = Client(start_server(args=args).url)
    parts = other._book_parts(exported, 300_000)
    assert len(parts) == 6  # more parts than the minute allows: one waits for its Retry-After
    answer = other.import_recipes(exported, part_bytes=300_000)
    assert answer["imported"] == 6 and len(answer["ids"]) == 6
    assert other.export_recipes() == exported
    assert [r["name"] for r in other.recipes()] == [f"Soup {n}" for n in range(6)]


def test_a_book_import_whose_later_part_fails_leaves_the_book_as_it_was(start_server):
    """Parts are stored one transaction each: when one fails, the recipes of the parts before
    it are deleted again, and the error says so (before, they stayed, and the book held part
    of the file)."""
    client = Client(start_server().url)
    kept = client.import_recipe(PAGE, save=True)
    before = client.export_recipes()
    book = {"playfield": "recipe-book", "version": 1, "recipes": [
        {"recipe": {"@context": "https://schema.org", "@type": "Recipe", "name": f"Soup {n}",
                    "recipeIngredient": ["1 onion"]}, "tags": []} for n in range(3)]}
    book["recipes"].append({"recipe": "not a recipe", "tags": []})
    assert [len(part["recipes"]) for part in client._book_parts(book, 200)] == [1, 1, 1, 1]
    with pytest.raises(HTTPError) as failed:
        client.import_recipes(book, part_bytes=200)
    assert failed.value.status == 400
    assert failed.value.message == ("recipes[3].recipe is not a schema.org Recipe with a name; "
                                    "the 3 recipes stored before it were deleted again")
    assert client.export_recipes() == before
    assert [r["id"] for r in client.recipes()] == [kept["id"]]


def test_a_page_without_a_recipe_says_what_was_looked_for(client):
    with pytest.raises(HTTPError) as refused:
        client.import_recipe("<html><body>nothing here</body></html>", save=True)
    assert refused.value.status == 422 and "no schema.org Recipe" in refused.value.message
    with pytest.raises(HTTPError) as missing:
        client.recipe(987654)
    assert missing.value.status == 404


def test_import_by_url_is_refused_for_loopback_and_lists_come_whole(start_server):
    client = Client(start_server(args=("--recipes-per-book", "1200")).url)
    with pytest.raises(HTTPError) as refused:
        client.import_recipe_url("http://127.0.0.1:9/recipe", save=True)
    assert refused.value.status == 403 and "non-public" in str(refused.value)
    book = {"playfield": "recipe-book", "version": 1, "recipes": [
        {"recipe": {"@type": "Recipe", "name": f"Dish {n:04}", "recipeIngredient": ["x"]},
         "tags": []} for n in range(1100)]}
    client.import_recipes(book)
    assert [r["name"] for r in client.recipes()] == [f"Dish {n:04}" for n in range(1100)]
