"""XLIFF 1.2 and 2.x catalogs: translation units with a source, a target, notes and a state.

The units and the text each locale gets from them (`units`), the format with its reading and
rendering (`format.XliffFormat`), and in-place edits (`document`).
"""
