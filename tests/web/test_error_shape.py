"""Every JSON error of every route has the contract's shape (datasette's test_error_shape)."""

import pytest

ERROR_CASES = [
    ("get", "/api/v1/no-such-route", None, None, 404),
    ("get", "/api/v1/decks/validate", None, None, 405),
    ("put", "/api/v1/formats", None, None, 405),
    ("get", "/api/v1/formats/no-such-format", None, None, 404),
    ("get", "/api/v1/cards/dcg/XX9-999", None, None, 404),
    ("get", "/api/v1/cards/nogame/BT1-010", None, None, 404),
    ("get", "/api/v1/cards?page=0", None, None, 422),
    ("get", "/api/v1/cards?game=pokemon", None, None, 422),
    ("post", "/api/v1/decks/validate", None, b"{not json", 400),
    ("post", "/api/v1/decks/validate", None, b"[1, 2]", 400),
    ("post", "/api/v1/decks/validate", None, b"\xff\xfe", 400),
    ("post", "/api/v1/decks/validate", {"format": "dcg"}, None, 422),
    ("post", "/api/v1/decks/validate", None, b"{" + b" " * (1024 * 1024 + 10) + b"}", 413),
    ("post", "/api/v1/decks/validate-batch", {"format": "dcg"}, None, 422),
    ("post", "/api/v1/decks/validate-batch", {"format": "x", "decks": []}, None, 422),
    ("post", "/api/v1/decks/export", {"format": "dcg", "decklist": "1 ST1-03"}, None, 422),
]


@pytest.mark.parametrize(("method", "path", "json_body", "raw", "status"), ERROR_CASES)
def test_error_shape(client, method, path, json_body, raw, status):
    kwargs = {"json": json_body} if json_body is not None else {"data": raw}
    response = getattr(client, method)(path, **kwargs)
    assert response.status_code == status
    assert response.mimetype == "application/json"
    data = response.get_json()
    assert set(data) == {"error"}
    assert set(data["error"]) == {"code", "message", "details"}
    assert (
        data["error"]["code"]
        and data["error"]["message"]
        and isinstance(data["error"]["details"], dict)
    )


def test_batch_body_may_be_larger(client):
    body = b'{"format": "digibattle", "decks": [], "pad": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    response = client.post(
        "/api/v1/decks/validate-batch", data=body, content_type="application/json"
    )
    assert response.status_code == 200


def test_body_over_the_batch_limit(client):
    body = b"{" + b" " * (16 * 1024 * 1024 + 10) + b"}"
    response = client.post(
        "/api/v1/decks/validate-batch", data=body, content_type="application/json"
    )
    assert response.status_code == 413 and response.get_json()["error"]["code"] == "body-too-large"


def test_pages_answer_html_errors(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert b"Traceback" not in response.data
