"""The one parse layer: languages, tree-sitter definitions and call sites, thin definitions."""
