"""The one metadata every table of the server's database is described on."""

from __future__ import annotations

from sqlalchemy import MetaData

metadata = MetaData()
