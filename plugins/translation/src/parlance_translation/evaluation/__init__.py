"""The eval corpus runner behind `parlance eval translation` (see `runner`)."""
