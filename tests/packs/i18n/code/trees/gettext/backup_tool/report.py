"""Run reports: messages whose text is only known at run time."""

from backup_tool import _


def report(name, total, status_message):
    title = _(f"Report for {name}")
    totals = _("Total: %d backups" % total)
    status = _(status_message)
    return title, totals, status
