"""The localization loop's domain: what is missing, the work items and prompt a model translates
from, and validated writes of its answers back into the project's catalog files (plain Python; the
MCP tools in `tools.loop` are a thin layer over it)."""
