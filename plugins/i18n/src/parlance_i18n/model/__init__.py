"""The catalog model: what the pack knows of a project's messages, independent of MCP.

`project` lists a project's catalog files and reads a locale's messages on first use, the one way any
catalog file is read; `loaders` makes the bundle files of `bundle_dirs` and language packs read-only
catalogs read the same way; `bundles` compiles what a session adds, in memory; `catalog` puts them
together with the `fallback` chains; `translator` is one session's view; `checks` compares locales
with the source.
"""
