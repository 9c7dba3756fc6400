"""`GET /api/v1`: a small page that names the OpenAPI document and lists what it holds
(contract "Links, QR codes and the API page"), HTML for a person, JSON for
`Accept: application/json`. Both are read from the one OpenAPI dict that
`/api/v1/openapi.json` serves, so the page cannot list a route the document lacks."""

from __future__ import annotations

from flask import Blueprint, Flask, jsonify, render_template, request, url_for

from deckcheck.format_registry import registry

bp = Blueprint("api_page", __name__)
METHODS = ("get", "post", "put", "patch", "delete")
JSON = "application/json"


def operations(document: dict) -> list[dict]:
    """Each operation of the document: its method, full path and summary, in path order."""
    prefix = document.get("servers", [{}])[0].get("url", "")
    found = []
    for path, entry in sorted(document["paths"].items()):
        for method in METHODS:
            if method in entry:
                found.append(
                    {
                        "method": method.upper(),
                        "path": prefix + path,
                        "summary": entry[method].get("summary", ""),
                    }
                )
    return found


@bp.get("/api/v1/")  # the document's "/" under its server address /api/v1
@bp.get("/api/v1")  # registered first: the address url_for builds
def api_page():
    from deckcheck.openapi import spec

    document = spec(tuple(registry().formats))
    listed = operations(document)
    openapi_url = url_for("api.openapi")
    # JSON only when asked for it by name: `*/*` and a browser's Accept get the page.
    if request.accept_mimetypes.best_match(["text/html", "application/json"]) == JSON:
        return jsonify(
            {
                "openapi": openapi_url,
                "title": document["info"]["title"],
                "version": document["info"]["version"],
                "operations": listed,
            }
        )
    return render_template(
        "api.html",
        openapi_url=openapi_url,
        info=document["info"],
        operations=listed,
    )


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
