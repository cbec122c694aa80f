import gettext

translation = gettext.translation("backup", localedir="locale", fallback=True)
_ = translation.gettext
ngettext = translation.ngettext
pgettext = translation.pgettext
npgettext = translation.npgettext
