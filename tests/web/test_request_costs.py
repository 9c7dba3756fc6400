"""Work done once per request, not twice (issue 33): spies on what every request runs.

The figures these bought are in docs/PERFORMANCE.md ("Per request").
"""

from __future__ import annotations

from flask.sessions import SecureCookieSessionInterface
from werkzeug.datastructures import Headers

from deckcheck import security, service
from deckcheck.service import as_payload

ST1 = {"main": [{"card": "ST1-03", "count": 4}], "eggs": [{"card": "ST1-01", "count": 4}]}


def test_the_session_serializer_is_made_once_not_per_request(client, monkeypatch):
    made = []
    real = SecureCookieSessionInterface.get_signing_serializer

    def counted(self, app):
        made.append(1)
        return real(self, app)

    monkeypatch.setattr(SecureCookieSessionInterface, "get_signing_serializer", counted)
    for _ in range(5):
        assert client.get("/api/v1/health").status_code == 200
    assert len(made) <= 1


def test_a_changed_secret_key_makes_a_new_serializer(app):
    sessions = app.session_interface
    first = sessions.get_signing_serializer(app)
    assert sessions.get_signing_serializer(app) is first
    app.config["SECRET_KEY"] = "another"
    assert sessions.get_signing_serializer(app) is not first


def test_security_headers_raise_no_key_error(app, monkeypatch):
    """`Headers.setdefault` raised and caught a KeyError for each missing header."""
    raised = []
    real = Headers._get_key

    def counted(self, key):
        try:
            return real(self, key)
        except KeyError:
            raised.append(key)
            raise

    with app.test_request_context("/"):
        response = app.response_class(b"x")
        monkeypatch.setattr(Headers, "_get_key", counted)
        security._headers(response)
        monkeypatch.undo()
    assert raised == []
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Content-Security-Policy"] == app.config["CSP"]


def test_a_header_the_response_set_itself_is_kept(app):
    with app.test_request_context("/"):
        response = app.response_class(b"x", headers={"x-frame-options": "SAMEORIGIN"})
        security._headers(response)
    assert response.headers.getlist("X-Frame-Options") == ["SAMEORIGIN"]


def test_structured_entries_reach_the_rules_as_the_request_holds_them(app, monkeypatch):
    """service.check made a (card, count) tuple of every entry before the rules read it."""
    given = []
    real = service.check_structured

    def spy(fmt, index, sections, *rest):
        given.append(sections)
        return real(fmt, index, sections, *rest)

    monkeypatch.setattr(service, "check_structured", spy)
    payload = as_payload({"deck": {**ST1, "partner": None}})
    with app.test_request_context("/"):
        report = service.check(service.find_format("dcg"), payload, None)
    assert report.deck.size("main") == 4
    assert given[0]["main"] is payload["deck"]["main"]
    assert given[0]["eggs"] is payload["deck"]["eggs"]
