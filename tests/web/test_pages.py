"""Every HTML page through the Flask test client (the shipped card lists)."""

import re

import pytest
from fixture_cards import ST1_TEXT as ST1


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("/", "Check a deck"),
        ("/cards", "AD1-001"),
        ("/cards?game=dcg&q=agumon&kind=digimon&level=3&color=Red&page=1", "BT1-010"),
        ("/cards?page=x", "AD1-001"),
        ("/cards/dcg/ST1-03", "Agumon"),
        ("/cards/dcg/st01-3", "Agumon"),
        ("/formats", "Digi-Battle"),
        ("/formats/dcg", "Digi-Egg"),
        ("/formats/dbe", "Destiny Zone"),
        ("/event", "<form"),
        ("/deck-check", "<form"),
    ],
)
def test_pages_answer(client, path, says):
    response = client.get(path)
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    page = response.get_data(as_text=True)
    assert "<script>" not in page
    assert says in page


@pytest.mark.parametrize(
    "path", ["/cards/dcg/XX9-999", "/cards/nogame/1", "/formats/nope", "/nowhere"]
)
def test_missing_pages_are_friendly(client, path):
    response = client.get(path)
    assert response.status_code == 404 and b"Not found" in response.data


def test_report_and_its_share_link(client):
    response = client.post("/report", data={"format": "dcg", "date": "2021-01-01", "decklist": ST1})
    page = response.get_data(as_text=True)
    assert "✔ Legal" in page and "sha256:" in page
    share = re.search(r'id="share" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    again = client.get(share.replace("http://localhost", "")).get_data(as_text=True)
    assert (
        re.search(r"sha256:[0-9a-f]{64}", again).group()
        == re.search(r"sha256:[0-9a-f]{64}", page).group()
    )


def test_report_shows_violations_and_charts(client):
    page = client.post("/report", data={"format": "dcg", "decklist": ST1 + "\n1 ST1-03"}).get_data(
        as_text=True
    )
    assert "✘ Not legal" in page and "Remove 1 copy" in page and "<svg" in page


def test_report_upload(client):
    import io

    data = {"format": "dcg", "date": "2021-01-01", "file": (io.BytesIO(ST1.encode()), "deck.txt")}
    page = client.post("/report", data=data, content_type="multipart/form-data").get_data(
        as_text=True
    )
    assert "✔ Legal" in page


@pytest.mark.parametrize(
    ("data", "status"),
    [
        ({"format": "dcg", "decklist": ""}, 400),
        ({"format": "nope", "decklist": "1 ST1-03"}, 422),
        ({"format": "dcg", "date": "someday", "decklist": "1 ST1-03"}, 422),
        ({"format": "dcg", "date": "9999-12-31", "decklist": "1 ST1-03"}, 422),
        ({"format": "dcg", "date": "0001-01-01", "decklist": "1 ST1-03"}, 422),
    ],
    ids=["empty", "unknown-format", "bad-date", "year-9999", "year-1"],
)
def test_report_errors_are_html(client, data, status):
    response = client.post("/report", data=data)
    assert response.status_code == status and response.mimetype == "text/html"


def test_damaged_share_link(client):
    assert client.get("/report?format=dcg&d=not-a-deck").status_code == 400


@pytest.mark.parametrize("style", ["text", "tts", "deck-code"])
def test_export_links(client, style):
    page = client.post("/report", data={"format": "dcg", "decklist": ST1}).get_data(as_text=True)
    link = re.search(rf'href="(/report/export/{style}\?[^"]+)"', page).group(1)
    response = client.get(link.replace("&amp;", "&"))
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]


def test_escaping(client):
    page = client.post(
        "/report", data={"format": "dcg", "decklist": "<b>x</b>\n4 <i>Agumon</i>"}
    ).get_data(as_text=True)
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page


def test_event_results_csv_and_sheets(client):
    pasted = f"=== Zoe (2) ===\n{ST1}\n=== Adam (1) ===\n{ST1}\n5 ST1-03\n=== Nobody ===\n"
    page = client.post(
        "/event", data={"event": "Cup", "format": "dcg", "date": "2021-01-01", "pasted": pasted}
    ).get_data(as_text=True)
    assert (
        "1 of 3 decks legal" in page
        and "Too many copies: ST1-03 Agumon" in page
        and "no decklist under this player" in page
    )
    # The table names the cards behind a problem, not the rule's code.
    assert "copy-limit" not in page
    payload = re.search(r'name="payload" value="([^"]+)"', page).group(1)
    csv = client.post("/event/results.csv", data={"payload": payload}).get_data(as_text=True)
    assert csv.splitlines()[0] == (
        '"player","player_id","verdict","violations","warnings","fingerprint","problems",'
        '"unread_lines"'
    )
    assert '"Zoe","2","legal"' in csv and '"Adam","1","not legal"' in csv
    sheets = client.post("/event/sheets", data={"payload": payload}).get_data(as_text=True)
    order = [
        sheets.index(name)
        for name in ('class="player">Adam', 'class="player">Nobody', 'class="player">Zoe')
    ]
    assert order == sorted(order) and sheets.count('class="sheet"') == 3


def test_event_csv_upload_with_a_bad_row(client):
    import io

    csv = f'player,player_id,decklist\nAlice,1,"{ST1}"\n,2,"4 ST1-03"\n'
    data = {"format": "dcg", "date": "2021-01-01", "csv": (io.BytesIO(csv.encode()), "event.csv")}
    page = client.post("/event", data=data, content_type="multipart/form-data").get_data(
        as_text=True
    )
    assert "1 of 2 decks legal" in page and "no player name" in page


def test_deck_check(client):
    page = client.post(
        "/deck-check",
        data={
            "format": "dcg",
            "registered": ST1,
            "presented": ST1.replace("4 ST1-13", "3 ST1-13\n1 ST1-14"),
        },
    ).get_data(as_text=True)
    assert (
        "The decks differ" in page
        and "ST1-13 Shadow Wing" in page
        and "-1" in page
        and "+1" in page
    )
    same = client.post(
        "/deck-check",
        data={
            "format": "dcg",
            "registered": ST1,
            "presented": "\n".join(reversed(ST1.splitlines())),
        },
    ).get_data(as_text=True)
    assert "Same deck" in same


# -- lines that named no card (deck.unresolved) -------------------------------------

UNREAD = ST1.replace("4 ST1-13", "2 ST1-13\n2 Mental Trainig")  # line 15 names no card
UNREAD_LINE = 1 + UNREAD.splitlines().index("2 Mental Trainig")


def report_page(client, decklist, format_id="dcg"):
    response = client.post(
        "/report", data={"format": format_id, "date": "2021-01-01", "decklist": decklist}
    )
    assert response.status_code == 200
    return response.get_data(as_text=True)


def caption(page, section):
    found = re.search(rf'id="section-{section}">\s*<caption>(.*?)</caption>', page, re.S)
    assert found, f"no {section} table"
    return re.sub(r"<[^>]+>", "", found.group(1))


def test_report_section_totals_count_the_unread_lines(client):
    page = report_page(client, UNREAD)
    assert UNREAD_LINE == 15
    assert caption(page, "main") == (
        "Main deck · 48 cards that deckcheck could read, and 2 more on line 15 that it could not"
    )
    assert caption(page, "eggs") == "Digi-Egg deck · 4 cards"
    rows = re.search(r'id="unread">(.*?)</table>', page, re.S).group(1)
    assert re.search(r"<td[^>]*>15</td><td[^>]*><q>2 Mental Trainig</q></td><td[^>]*>2</td>", rows)
    assert 'data-line="15"' in page and "line 15</span>" in page


def test_report_counts_an_unread_line_under_its_header(client):
    text = "Digi-Egg\n4 ST1-01\n3 Koromonn\nMain\n" + "\n".join(ST1.splitlines()[2:])
    page = report_page(client, text)
    assert caption(page, "eggs") == (
        "Digi-Egg deck · 4 cards that deckcheck could read, and 3 more on line 3 that it could not"
    )
    assert caption(page, "main") == "Main deck · 50 cards"


def test_report_shows_a_section_whose_every_line_is_unread(client):
    page = report_page(client, "Digi-Egg\n4 Koromonn\nMain\n" + "\n".join(ST1.splitlines()[2:]))
    assert caption(page, "eggs") == (
        "Digi-Egg deck · 0 cards that deckcheck could read, and 4 more on line 2 that it could not"
    )


def test_report_without_unread_lines_has_plain_totals(client):
    page = report_page(client, ST1)
    assert caption(page, "main") == "Main deck · 50 cards"
    assert 'id="unread"' not in page and 'id="left-out"' not in page


def test_report_export_links_say_what_they_leave_out(client):
    page = report_page(client, UNREAD)
    note = re.search(r'id="left-out">(.*?)</div>', page, re.S).group(1)
    assert "Line 15 (“2 Mental Trainig”, 2 cards) named no card" in note
    link = re.search(r'href="(/report/export/text\?[^"]+)"', page).group(1)
    response = client.get(link.replace("&amp;", "&"))
    assert response.headers["X-Deckcheck-Left-Out"] == "line 15 (2 cards)"
    content = response.get_data(as_text=True)
    assert "Mental" not in content and "2 Shadow Wing ST1-13" in content


def test_report_export_of_a_readable_deck_has_no_left_out_header(client):
    page = report_page(client, ST1)
    link = re.search(r'href="(/report/export/tts\?[^"]+)"', page).group(1)
    assert "X-Deckcheck-Left-Out" not in client.get(link.replace("&amp;", "&")).headers


@pytest.mark.parametrize(
    ("format_id", "decklist", "cell"),
    [
        ("digibattle", "ST-01 Agumon\nST-04 Birdramon", "Green, Data, Fly"),
        ("dmcg", "St-1", None),
        ("dcg", "4 ST1-03", "Red"),
    ],
)
def test_report_colour_or_type_column_is_filled(client, format_id, decklist, cell):
    page = report_page(client, decklist, format_id)
    table = re.search(r'id="section-main">(.*?)</table>', page, re.S).group(1)
    cells = re.findall(r"<td[^>]*>([^<]*)</td></tr>", table)
    assert cells and all(c.strip() for c in cells), cells
    if cell:
        assert cell in cells


def test_event_table_lists_unread_lines_with_counts(client):
    pasted = f"=== Zoe (2) ===\n{UNREAD}\n=== Adam (1) ===\n{ST1}\n"
    page = client.post(
        "/event", data={"event": "Cup", "format": "dcg", "date": "2021-01-01", "pasted": pasted}
    ).get_data(as_text=True)
    unread = re.findall(r'<p class="doubt unread">(.*?)</p>', page, re.S)
    assert unread == ["Lines that named no card: line 15 <q>2 Mental Trainig</q> (2 cards)."]
    totals = re.findall(r'<p class="doubt totals">(.*?)</p>', page, re.S)
    assert totals == [
        "Digi-Egg deck: 4 cards; Main deck: 48 cards that deckcheck could read, and 2 more on "
        "line 15 that it could not."
    ]
    payload = re.search(r'name="payload" value="([^"]+)"', page).group(1)
    csv = client.post("/event/results.csv", data={"payload": payload}).get_data(as_text=True)
    zoe = next(line for line in csv.splitlines() if line.startswith('"Zoe"'))
    adam = next(line for line in csv.splitlines() if line.startswith('"Adam"'))
    assert zoe.endswith(',"line 15: 2 Mental Trainig (2)"') and adam.endswith(',""')


def lock_page(client, registered, presented):
    return client.post(
        "/deck-check", data={"format": "dcg", "registered": registered, "presented": presented}
    ).get_data(as_text=True)


def test_deck_check_shows_unread_lines_and_totals(client):
    page = lock_page(client, ST1, UNREAD)
    assert "The decks differ" in page
    registered = re.search(r'id="totals-registered">(.*?)</tr>', page, re.S).group(1)
    presented = re.search(r'id="totals-presented">(.*?)</tr>', page, re.S).group(1)
    assert "Main deck: 50 cards" in registered and ">none</td>" in registered
    assert (
        "Main deck: 48 cards that deckcheck could read, and 2 more on line 15 that it could not"
        in presented
    )
    assert "line 15 <q>2 Mental Trainig</q> (2)" in presented


def test_deck_check_never_calls_decks_with_unread_lines_the_same(client):
    # Both lists read as the same cards, but line 15 is outside the fingerprint.
    page = lock_page(client, UNREAD, UNREAD.replace("2 Mental Trainig", "3 Mental Trainig"))
    assert "Same deck" not in page and "Same cards where deckcheck could read them" in page
    assert 'id="lock-unread-note"' in page
    assert "Same deck" in lock_page(client, ST1, ST1)


def test_deck_check_flags_banned_restricted_and_unknown_cards_at_the_table(client):
    presented = f"{ST1}\n2 ST2-13\n1 Notamon"
    page = lock_page(client, ST1, presented)
    flagged = re.search(r'id="table-problems"(.*?)</section>', page, re.S).group(1)
    assert "Notamon" in flagged and "ST2-13" in flagged
    assert 'id="table-problems"' not in lock_page(client, ST1, ST1)


def test_the_card_browser_keeps_its_filters_on_a_bad_query(client):
    response = client.get("/cards?game=dmcg&kind=tamer&level=III&order=name&q=foo:bar")
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "foo:bar" in page
    assert re.search(r'<option value="dmcg" selected', page)
    assert re.search(r'<option value="tamer" selected', page)
    assert re.search(r'<option value="name" selected', page)
    assert 'id="level" name="level" value="III"' in page


def test_words_for_people(client):
    from datetime import date

    from deckcheck.words import day_words, moment_words, plural

    assert plural(1, "player has", "players have") == "1 player has"
    assert plural(2, "player has", "players have") == "2 players have"
    assert plural(3, "deck") == "3 decks"
    assert day_words(date(2026, 12, 5)) == "5 December 2026"
    assert moment_words("2026-12-05T09:00:00+01:00") == "5 December at 09:00 (UTC+1)"
    assert moment_words("2026-11-25T17:35:00-05:00") == "25 November at 17:35 (UTC-5)"
    assert moment_words("2026-11-25T17:35:00+05:30", year=True) == (
        "25 November 2026 at 17:35 (UTC+5:30)"
    )
    page = client.post("/report", data={"format": "dcg", "decklist": ST1, "date": "2021-01-01"})
    text = page.get_data(as_text=True)
    assert "Digimon Card Game on 1 January 2021." in text and "(dcg)" not in text


def test_a_late_list_is_told_when_the_event_closed_in_words(client, app):
    made = client.post(
        "/api/v1/events",
        json={"name": "Cup", "format": "dcg", "deadline": "2026-11-25T17:35:00-05:00"},
    )
    assert made.status_code == 201, made.get_json()
    event_id = made.get_json()["id"]
    with app.app_context():
        from deckcheck.events import core

        message = core.locked_error(core.find_event(event_id)).message
    assert message.endswith("it was closed on 25 November at 17:35 (UTC-5).")


def test_the_players_page_counts_in_words(client):
    made = client.post(
        "/api/v1/events", json={"name": "Cup", "format": "dcg", "deadline": "2099-01-01T10:00Z"}
    ).get_json()
    page = client.get(f"/e/{made['id']}").get_data(as_text=True)
    assert "0 players have sent a list" in page and "Digimon Card Game" in page
    sent = client.post(
        f"/api/v1/events/{made['id']}/submissions", json={"player": "Ada", "decklist": ST1}
    )
    assert sent.status_code == 201, sent.get_json()
    page = client.get(f"/e/{made['id']}").get_data(as_text=True)
    assert "1 player has sent a list" in page
