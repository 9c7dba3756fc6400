"""Accounts with real passkeys in a real Chromium (contract "Accounts"): the DevTools
virtual authenticator (ctap2, internal, resident keys, user verification) plays the
phone's screen lock. Served on `localhost`, not 127.0.0.1: browsers refuse passkeys on
an IP address (which /account says).

A player with a token deck makes an account on a phone, claims it, saves three decks,
makes a one-time link, opens it on a laptop (another browser context: no cookie, no
passkey), signs in there and edits one deck; then signs out on the phone and back in
with the passkey. /account is axe clean signed out, signed in and with a link and its
QR code shown.
"""

from __future__ import annotations

import io

import pytest
from conftest import new_app
from fixture_cards import ST1_TEXT
from served import served
from web.builder_save import click_save
from web.test_a11y import violations

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    app = new_app(tmp_path_factory.mktemp("accounts-site"), DECKS_CREATE_LIMIT=(0, 3600))
    with served(app) as base:
        yield base.replace("127.0.0.1", "localhost")


def _context(browser, width: int, bypass_csp: bool = False):
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=bypass_csp)
    context.set_default_timeout(15000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.errors = errors
    return context, page


def _authenticator(page) -> None:
    """A platform passkey for this page's browser context, as a phone's screen lock."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    page.cdp = cdp


def _scanned(locator) -> str:
    zxingcpp = pytest.importorskip("zxingcpp")
    image = pytest.importorskip("PIL.Image")
    found = zxingcpp.read_barcodes(image.open(io.BytesIO(locator.screenshot())))
    assert found, "no QR code could be read"
    return found[0].text


def _serious(page) -> list[dict]:
    return [v for v in violations(page) if v["impact"] in ("critical", "serious")]


def _save(page, name: str, signed_in: bool = True) -> str:
    """A deck saved from this page's browser (its session cookie, this site's origin; no
    cookie when not `signed_in`: a token deck of no account), its edit token kept as the
    builder's Save keeps it."""
    made = page.evaluate(
        """async ([name, list, cookie]) => {
            const r = await fetch("/api/v1/decks", {method: "POST",
                headers: {"Content-Type": "application/json"},
                credentials: cookie ? "same-origin" : "omit",
                body: JSON.stringify({format: "dcg", name, decklist: list})});
            return [r.status, await r.json()];
        }""",
        [name, ST1_TEXT, signed_in],
    )
    assert made[0] == 201, made
    page.evaluate(
        "([id, token, name]) => window.deckcheckDecks.keep(id, token, name)",
        [made[1]["deck"]["id"], made[1]["edit_token"], name],
    )
    return made[1]["deck"]["id"]


@pytest.mark.parametrize("width", [390, 1280])
def test_phone_account_three_decks_link_to_a_laptop_edit_there(browser, site, width):
    phone_context, phone = _context(browser, width, bypass_csp=True)
    laptop_context, laptop = _context(browser, 1280)
    try:
        _authenticator(phone)
        phone.goto(f"{site}/account")
        assert phone.locator("#account-ip").count() == 0
        assert _serious(phone) == []
        # A deck saved before the account: a token deck this browser keeps.
        kept = _save(phone, "Token deck")
        assert phone.evaluate(f"window.deckcheckDecks.token('{kept}')")
        phone.fill("#register-name", f"Rika {width}")
        phone.click("#register")
        codes = phone.locator("[data-testid=recovery-codes] li")
        codes.nth(9).wait_for()
        assert codes.count() == 10
        ids = [_save(phone, f"Deck {n}") for n in (1, 2, 3)]
        # A binder saved signed in belongs to the account (this browser keeps no token).
        made = phone.evaluate(
            """async () => (await fetch('/api/v1/collections', {method: 'POST',
                headers: {'Content-Type': 'application/json'}, body: JSON.stringify(
                    {name: 'Phone binder', game: 'dcg', cards: '4 ST1-03'})})).status"""
        )
        assert made == 201

        phone.goto(f"{site}/account")
        assert phone.inner_text("#account-name") == f"Rika {width}"
        phone.click("#account-claim")
        phone.wait_for_selector("#account-status p")
        # The token deck, and the three saved signed in (their tokens are kept too).
        assert phone.inner_text("#account-status").startswith("4 of this browser's decks")
        phone.click("#make-link")
        link = phone.locator("#link-url")
        link.wait_for()
        url = link.get_attribute("href")
        assert url.startswith(f"{site}/account/link#")  # whole: the browser's origin
        assert _scanned(phone.locator("#link-qr")) == url  # as the laptop's camera reads it
        assert _serious(phone) == []

        laptop.goto(url)
        laptop.wait_for_url(f"{site}/account")
        assert laptop.inner_text("#account-name") == f"Rika {width}"
        # The account's binder on the laptop, which never held its token, and changed there.
        laptop.goto(f"{site}/collections")
        laptop.wait_for_function(
            "() => document.getElementById('binder-name').textContent === 'Phone binder'"
        )
        assert "1 different card" in laptop.inner_text("#binder-summary")
        laptop.fill("#binder-text", "2 ST1-01")
        laptop.click("#binder-add")
        laptop.wait_for_function(
            "() => document.getElementById('binder-summary').textContent.startsWith('2 different')"
        )
        laptop.goto(f"{site}/decks")
        listed = laptop.locator("[data-testid=account-decks] li")
        assert listed.count() == 4
        assert sorted(listed.locator("a[href^='/d/']:not([href$='/edit'])").evaluate_all(
            "links => links.map(a => a.getAttribute('href').slice(3))"
        )) == sorted([*ids, kept])  # fmt: skip
        laptop.click(f"a[href='/d/{ids[1]}/edit']")
        laptop.wait_for_selector("#b-save-status p")
        assert "Save makes a new version" in laptop.inner_text("#b-save-status")
        laptop.fill("#b-name", "Edited on the laptop")
        click_save(laptop)
        laptop.wait_for_selector("[data-testid=saved]")
        assert "version 2" in laptop.inner_text("[data-testid=saved]")
        # The link was used: a second opening signs nobody in.
        other_context, other = _context(browser, 1280)
        other.goto(url)
        other.wait_for_selector("#link-status .error")
        other_context.close()

        # Sign out on the phone, and back in with its passkey.
        phone.click("#account-logout")
        phone.wait_for_selector("#login")
        assert _serious(phone) == []
        phone.click("#login")
        phone.wait_for_selector("#account-name")
        decks = phone.evaluate("async () => (await (await fetch('/api/v1/account/decks')).json())")
        names = sorted(d["name"] for d in decks["data"])
        assert names == ["Deck 1", "Deck 3", "Edited on the laptop", "Token deck"]
        # /decks on the phone: the account's four once (the server's list), and below only
        # the token decks that are not the account's (this browser keeps all five tokens).
        other_id = _save(phone, "Nobody's deck", signed_in=False)
        phone.goto(f"{site}/decks")
        phone.wait_for_selector("#my-decks[data-ready]")
        assert phone.locator("[data-testid=account-decks] li").count() == 4
        mine = phone.locator("[data-testid=my-decks] li")
        assert mine.evaluate_all("rows => rows.map(r => r.dataset.id)") == [other_id]
        assert phone.errors == [] and laptop.errors == []
    finally:
        phone_context.close()
        laptop_context.close()


def test_the_account_page_on_an_ip_address_says_to_use_a_host_name(browser, site):
    context, page = _context(browser, 390)
    try:
        page.goto(site.replace("localhost", "127.0.0.1") + "/account")
        assert "host name" in page.inner_text("#account-ip")
    finally:
        context.close()
