"""Parlance pack `strings_admin`: an MCP façade over a strings-admin REST service (scopes and keys).

Tools `duda_strings_admin_get_all_scopes` and `duda_strings_admin_create_new_string_key`, and the
command `parlance strings-admin emulator`. The entry point is `parlance_strings_admin.pack`.
"""
