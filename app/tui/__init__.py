"""The Textual front end: one App, its messages and its stylesheet."""
