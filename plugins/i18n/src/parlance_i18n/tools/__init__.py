"""The pack's MCP surface: the tools' signatures (`handlers`), their wire models (`models`), the work
behind them (`engine` for the seed's tools, `loop` for the localization loop), loaded on first call, and
`wire`, the one place the domain's results and errors become wire models and `ToolError`s.
"""
