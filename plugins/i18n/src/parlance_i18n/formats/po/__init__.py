"""gettext PO/POT: the syntax (`scanner`), in-place edits (`document`), rendering (`render`), and the
format itself (`format.PoFormat`)."""
