"""The service keeps answering, with a whole pool, while an import runs and after one fails."""

import threading

import pytest
from fixture_cards import ST1_DECK as ST1

from cardpool.db import connect
from cardpool.errors import BadRowError
from cardpool.importers import parse_source
from cardpool.imports import import_pool
from cardpool.shipped import read_shipped
from cardpool.store import replace_pool


def test_answers_during_imports_and_after_a_failed_one(app, client, tmp_path):
    rows = parse_source("dcg", read_shipped("dcg"), "starter")
    bad = tmp_path / "bad.csv"
    bad.write_text("number,name,kind\nST1-01,Koromon,pokemon\n")
    done = threading.Event()
    failures = []

    def importer():
        db = connect(app.config["DATABASE"])
        try:
            for _ in range(8):
                replace_pool(db, "dcg", rows, "again")
                with pytest.raises(BadRowError):
                    import_pool(db, "dcg", str(bad))
        except Exception as err:  # reported by the assertion below
            failures.append(err)
        finally:
            db.close()
            done.set()

    thread = threading.Thread(target=importer)
    thread.start()
    answers = []
    while not done.is_set() or len(answers) < 5:
        response = client.post(
            "/api/v1/decks/validate", json={"format": "dcg", "date": "2021-01-01", "deck": ST1}
        )
        answers.append((response.status_code, response.get_json()["legal"]))
        search = client.get("/api/v1/cards?game=dcg")
        assert search.status_code == 200 and search.get_json()["total"] == len(rows)
    thread.join()
    assert failures == []
    assert set(answers) == {(200, True)}
