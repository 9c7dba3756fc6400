"""Data the rules ship with (the DCG list history)."""
