"""One deck-construction check per module; formats combine them (see rules.builtin).

Every check is a frozen dataclass with a `code` (the contract's violation code), a
`rule` (where the rule is written, shown to the player) and `check(deck, ctx)`,
a generator of violations. Its docstring is its documentation.
"""

from rules.checks.choice_restriction import ChoiceRestrictionCheck
from rules.checks.copy_limit import CopyLimit
from rules.checks.data_legality import DataLegality
from rules.checks.deck_size import DeckSize
from rules.checks.destiny_limit import DestinyLimit
from rules.checks.kind_total_limit import KindTotalLimit
from rules.checks.limited_cards import BannedCards, RestrictedCards
from rules.checks.name_limit import NameLimit
from rules.checks.not_released import NotReleased
from rules.checks.partner import PartnerCheck
from rules.checks.reported_change import ReportedChange
from rules.checks.required_card import RequiredCard
from rules.checks.set_allowed import SetAllowed
from rules.checks.upcoming_change import UpcomingChange
from rules.checks.wrong_section import WrongSection

__all__ = [
    "BannedCards",
    "ChoiceRestrictionCheck",
    "CopyLimit",
    "DataLegality",
    "DeckSize",
    "DestinyLimit",
    "KindTotalLimit",
    "NameLimit",
    "NotReleased",
    "PartnerCheck",
    "ReportedChange",
    "RequiredCard",
    "RestrictedCards",
    "SetAllowed",
    "UpcomingChange",
    "WrongSection",
]
