"""`i18n_history`: the write log of a shared engine (`[state] url`), this pack's rows, newest first.

Who wrote (the OAuth token's subject and client), when, with which tool, into which catalog and
locale, the keys, each file's SHA-256 before and after, and the counts: never a message's text (the
log holds none). Listed only with `[state] url` (`needs_shared_state`): the embedded engine keeps no log.
"""

from __future__ import annotations

import datetime as dt

from parlance import WriteRecord
from parlance_i18n.locales import parse_locale
from parlance_i18n.tools.context import I18nContext
from parlance_i18n.tools.models import HistoryFile, HistoryInput, HistoryOutput, HistoryRecord
from parlance_i18n.tools.wire import domain_errors

__all__ = ["history"]


async def history(args: HistoryInput, ctx: I18nContext) -> HistoryOutput:
    with domain_errors:  # a locale as every tool takes it ('pt_BR'), found as the log holds it ('pt-BR')
        locale = parse_locale(args.locale).code if args.locale is not None else None
    page = await ctx.history(catalog=args.catalog, key=args.key, locale=locale, limit=args.limit, cursor=args.cursor)
    return HistoryOutput(records=[_row(record) for record in page.records], next_cursor=page.next_cursor)


def _row(record: WriteRecord) -> HistoryRecord:
    at = record.at if record.at.tzinfo is not None else record.at.replace(tzinfo=dt.timezone.utc)
    return HistoryRecord(at=at.astimezone(dt.timezone.utc).isoformat(), subject=record.subject,
                         client_id=record.client_id, tool=record.tool, catalog=record.catalog, locale=record.locale,
                         keys=list(record.keys), written=record.written, refused=record.refused,
                         files=[HistoryFile(path=f.path, before=f.before, after=f.after) for f in record.files])
