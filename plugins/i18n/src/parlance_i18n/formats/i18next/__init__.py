"""i18next JSON v4: where keys are written (`keys`), `t()` as i18next runs it (`render`), and the format
(`format.I18nextFormat`)."""
