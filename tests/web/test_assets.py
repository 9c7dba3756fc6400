"""Styles and scripts at addresses that change with their contents (deckcheck/assets.py):
kept by a browser for a year, fetched anew the day they change."""

from __future__ import annotations

import re

import pytest

from deckcheck.assets import KEY, YEAR, Digests

LINKED = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def test_every_page_links_its_files_by_their_digest(client):
    for page in ("/", "/build?format=dcg", "/cards?game=dcg", "/e/new"):
        html = client.get(page).get_data(as_text=True)
        links = LINKED.findall(html)
        assert links, page
        for link in links:
            assert re.search(r"\?v=[0-9a-f]{12}$", link), (page, link)
            answer = client.get(link)
            answer.close()  # a file's answer streams it: closed, the file is too
            assert answer.status_code == 200, link
            kept = answer.cache_control
            assert kept.max_age == YEAR and kept.immutable and kept.public, link


def test_an_address_without_the_current_digest_is_checked_each_time(client):
    for link in ("/static/style.css", "/static/style.css?v=0123456789ab"):
        answer = client.get(link)
        answer.close()
        assert answer.status_code == 200
        assert answer.cache_control.max_age is None and not answer.cache_control.immutable
        assert answer.cache_control.no_cache


def test_other_addresses_keep_the_operators_max_age(app):
    """`SEND_FILE_MAX_AGE_DEFAULT` still sets the answer of an unversioned address."""
    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = 600
    answer = app.test_client().get("/static/style.css")
    answer.close()
    assert answer.cache_control.max_age == 600 and not answer.cache_control.immutable


def test_the_digest_follows_the_contents(tmp_path):
    (tmp_path / "style.css").write_text("body { color: black }")
    before = Digests(str(tmp_path)).of("style.css")
    (tmp_path / "style.css").write_text("body { color: navy }")
    after = Digests(str(tmp_path)).of("style.css")
    assert before and after and before != after


def test_no_digest_for_what_is_not_a_file_of_the_folder(tmp_path):
    folder = tmp_path / "static"
    folder.mkdir()
    (tmp_path / "secret.txt").write_text("x")
    digests = Digests(str(folder))
    assert digests.of("../secret.txt") == "" and digests.of("missing.js") == ""
    assert digests.of("") == "" and digests.current("../secret.txt") == ""


def test_a_file_changed_in_place_is_no_longer_kept_under_its_digest(tmp_path):
    """An upgrade before the restart, or an edit while developing: the old digest must
    not keep the new contents a year."""
    (tmp_path / "build.js").write_text("old()")
    digests = Digests(str(tmp_path))
    read = digests.of("build.js")
    assert read and digests.current("build.js") == read
    (tmp_path / "build.js").write_text("newer()")
    assert digests.of("build.js") == read and digests.current("build.js") == ""


@pytest.mark.parametrize("name", ["./style.css", "zz1/../style.css", "style.css/", "%2e/style.css"])
def test_another_spelling_of_a_files_name_is_not_kept(client, app, name):
    """Any spelling a client sends is looked up, never added: the digests stay the
    folder's files, and a spelling is not kept a year (it is not the address pages use)."""
    kept = dict(app.extensions[KEY].known)
    digest = app.extensions[KEY].of("style.css")
    for n in range(1, 30):
        answer = client.get(f"/static/{'./' * n}{name}?v={digest}")
        answer.close()
        assert answer.status_code in (200, 404), name
        assert answer.cache_control.max_age is None and not answer.cache_control.immutable
    assert app.extensions[KEY].known == kept


def test_addresses_of_no_file_leave_nothing_behind(client, app):
    kept = dict(app.extensions[KEY].known)
    assert "style.css" in kept and "build.js" in kept  # every file, read at the start
    for n in range(50):
        assert client.get(f"/static/no-such-file-{n}.js?v=x").status_code == 404
    assert app.extensions[KEY].known == kept


@pytest.mark.parametrize(
    "name",
    ["a%00b.js", "x" * 5000, "..%2f..%2fwsgi.py", "%2e%2e/wsgi.py", "%ff.js", "style.css%00"],
)
def test_hostile_file_names_are_a_404(client, name):
    """Every address of /static/ asks for a digest: no name may make that fail (a NUL
    byte and a name too long for the file system were 500s)."""
    for query in ("", "?v=0123456789ab"):
        answer = client.get(f"/static/{name}{query}")
        answer.close()
        assert answer.status_code == 404, (name, query)
