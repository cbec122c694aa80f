"""Apple's catalogs: `.strings` (`strings`, its syntax in `strings_syntax`), `.stringsdict`
(`stringsdict`), String Catalogs (`xcstrings`), what the three share (`base`: Apple format strings'
placeholders), and Foundation's plural rendering the last two share (`foundation_plural`)."""
