"""Apple's catalogs: `.strings` (`strings`), `.stringsdict` (`stringsdict`), String Catalogs
(`xcstrings`), and Foundation's plural rendering the last two share (`foundation_plural`)."""
