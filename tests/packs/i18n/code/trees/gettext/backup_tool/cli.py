"""Command line of the backup tool."""

import argparse
import gettext

from backup_tool import _, ngettext, npgettext, pgettext


def N_(message):
    return message


COMMANDS = {
    "run": N_("Run a backup now"),
    "list": N_("List the backups kept"),
}


def build_parser():
    parser = argparse.ArgumentParser(description=_("Back up folders to a remote store."))
    parser.add_argument("--dry-run", help=_("Show what would be copied, "
                                            "without copying anything"))
    parser.add_argument("--keep", type=int, help=_(
        "How many backups to keep"  # older ones are deleted
    ))
    return parser


def summary(copied, skipped):
    # Translators: shown after a run
    lines = [ngettext("Copied %d file", "Copied %d files", copied) % copied]
    if skipped:
        lines.append(npgettext("files", "Skipped %(n)d", "Skipped %(n)d", skipped) % {"n": skipped})
    return "\n".join(lines)


def menu():
    return [pgettext("menu", "Open"), pgettext("verb", "Open"), _('Quit')]


def errors():
    return gettext.dgettext("backup-errors", "The remote store refused the login")


def count_errors(n):
    return gettext.dngettext("backup-errors", "%d error", "%d errors", n) % n


def not_a_call():
    text = "_('this is a string, not a call')"
    # _("this is a comment")
    return text
