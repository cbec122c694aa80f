"""Rails i18n YAML: YAML as Psych loads it (`psych`), Rails' key rules (`keys`), in-place edits
(`document`), interpolation and pluralization (`interpolation`), and the format (`format.YamlFormat`)."""
