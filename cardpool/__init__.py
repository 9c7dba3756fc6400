"""The card database: schema, importers, search. No Flask here."""
