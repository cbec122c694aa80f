"""The code that uses a project's catalogs: which keys the source calls, which nothing calls, which it
calls but the catalog lacks, and the user-visible strings that never go through the i18n API.

Layers, each importing only those above it:

- `model`: what a scan finds in one file (`FileScan`: references, dynamic keys, hard-coded strings)
  and the edits an extraction makes.
- `parsing`: tree-sitter parsers per language, loaded on first use, and the node helpers every
  framework reads trees with (a string literal's value, a node's position).
- `frameworks`: one module per framework (i18next, FormatJS, gettext, Django, Android, Apple,
  Flutter, Rails, Java), behind a registry like the catalog formats'. Each says which files it reads,
  what a call to its API looks like there, which literals a user sees, how its keys are spelled in the
  catalog, and how a literal becomes a call.
- `settings`: `[[packs.i18n.sources]]`.
- `files`: the source files a `sources` entry names (globs, exclusions, `.gitignore`), read inside the
  project and within limits.
- `scanner`: every file scanned once per content (a cache by content hash, so a re-scan after one
  file changed parses one file).
- `usage`: references matched to a catalog's keys (used, unused, undefined, dynamic).
- `extract`: a hard-coded literal replaced by the framework's call, with the source message added.

Parse, do not grep: a key is what the framework's own extractor would read, so comments, strings that
merely look like calls and aliased imports are read as the extractor reads them.
"""
