"""WSGI entry point: `gunicorn wsgi:app` (configuration from DECKCHECK_* variables)."""

from deckcheck import create_app

app = create_app()
