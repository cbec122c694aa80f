"""The catalog model: what the pack knows of a project's messages, independent of MCP.

`project` lists a project's catalog files and reads a locale's messages on first use; `bundles` and
`loaders` hold the bundles from `bundle_dirs` and language packs; `catalog` puts them together with the
`fallback` chains; `translator` is one session's view; `checks` compares locales with the source.
"""
