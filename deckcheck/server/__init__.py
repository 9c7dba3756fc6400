"""The server's own layer beneath its products (events, decks, accounts): who is signed
in (`sessions`) and who may change a stored thing (`owners`). Products ask it; it asks
no product. Its tables live in the events database, on its one metadata (`tables`).
"""
