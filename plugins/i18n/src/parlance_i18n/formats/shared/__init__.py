"""What several catalog formats share: text, JSON and XML documents that edit in place (`textedit`;
`jsontext` over its scanner `jsonscan`; `xmltext`, the scanner, and `xmledit`), printf messages and
their placeholders (`printf`, `placeholders`), JavaScript value semantics and `Intl` (`js_values`,
`intl` with `intl_rules`), lazily compiled messages (`messages`) and locale spellings (`spelling`).
Nothing here names a format.
"""
