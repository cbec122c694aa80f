"""gettext PO/POT: the syntax (`scanner`), in-place edits (`document`), rendering (`render`), the
sources a file carries in its msgids (`sources`), a caller's plural forms as msgstr indexes
(`msgstr_forms`), and the format itself (`format.PoFormat`)."""
