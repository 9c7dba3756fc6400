"""WSGI entry point: `gunicorn -c gunicorn.conf.py wsgi:app` (settings in gunicorn.conf.py,
configuration from DECKCHECK_* variables)."""

from deckcheck import create_app

app = create_app()
