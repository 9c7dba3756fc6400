"""One exception class per way an import can fail; each message says what and where."""


class CardPoolError(Exception):
    """Base class: an import or sync that changed nothing."""


class FetchError(CardPoolError):
    """The source could not be downloaded (network, timeout, HTTP status, size)."""


class SourceFormatError(CardPoolError):
    """The source is not a card list of the expected shape (truncated, wrong JSON)."""


class BadRowError(CardPoolError):
    """One card of the source is invalid; the message names the line or card."""
