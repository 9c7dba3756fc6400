"""Every HTML page through the Flask test client (the starter pool)."""

import re

import pytest
from fixture_cards import ST1_TEXT as ST1


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("/", "Check a deck"),
        ("/cards", "ST1-03"),
        ("/cards?game=dcg&q=agumon&kind=digimon&level=3&color=Red&page=1", "ST1-03"),
        ("/cards?page=x", "ST1-03"),
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
        ({"format": "dcg", "date": "someday", "decklist": "1 ST1-03"}, 400),
    ],
    ids=["empty", "unknown-format", "bad-date"],
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
        and "copy-limit" in page
        and "no decklist under this player" in page
    )
    payload = re.search(r'name="payload" value="([^"]+)"', page).group(1)
    csv = client.post("/event/results.csv", data={"payload": payload}).get_data(as_text=True)
    assert (
        csv.splitlines()[0] == "player,player_id,verdict,violations,warnings,fingerprint,problems"
    )
    assert "Zoe,2,legal" in csv and "Adam,1,not legal" in csv
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
