"""Plain data, settings and paths shared by every layer; no heavy imports here."""
