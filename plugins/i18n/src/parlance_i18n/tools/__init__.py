"""The pack's MCP surface: the tools' signatures (`handlers`), their wire models (`models`), and the
work behind them (`engine` for the seed's tools, `loop` for the localization loop), loaded on first call.
"""
