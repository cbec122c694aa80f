"""i18next JSON v4: where keys are written (`keys`), plural groups as keys of their own (`groups`),
`t()` as i18next runs it (`render`), and the format (`format.I18nextFormat`)."""
