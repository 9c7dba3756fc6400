"""WSGI entry point: `gunicorn -c gunicorn.conf.py wsgi:app` (settings in gunicorn.conf.py,
configuration from DECKCHECK_* variables)."""

from deckcheck import create_app
from deckcheck.events import warm

app = create_app()
warm(app)  # before this worker takes a request (deckcheck/events/__init__.py)
