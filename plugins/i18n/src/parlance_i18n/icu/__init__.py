"""The ICU MessageFormat engine, as FormatJS (`intl-messageformat`) reads and renders a message.

`syntax` (with the `quick` shortcut) parses a message into `nodes`; `messageformat` compiles it
(`compiler`), renders it (`render`) and says what it refers to (`facts`); `plurals` holds the CLDR
plural rules; `numbers` (with `number_options` and `number_data`), `dates`, `skeletons`,
`locale_formats` and `cldr` format arguments as `Intl` does. The engine knows nothing of catalogs
or files: the formats build on it.
"""
