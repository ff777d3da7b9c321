"""The MCP front end: `repolens-tui mcp PATH...` serves the index to coding agents over stdio
or streamable HTTP, with the same JSON contracts as the CLI's `--json`."""
