"""The language packs Parlance ships, as package data: one folder per pack, each holding its
`pack.toml`. The host finds them through this distribution's `parlance.language_packs` entry
points and reads them without importing this package; nothing here runs."""
