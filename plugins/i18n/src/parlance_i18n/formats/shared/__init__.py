"""What several catalog formats share: text and JSON/XML documents that edit in place (`textedit`,
`jsontext`, `xmltext`), printf messages (`printf`), JavaScript value semantics and `Intl` (`js_values`,
`intl`), lazily compiled messages (`messages`) and locale spellings (`spelling`). Nothing here names a
format.
"""
