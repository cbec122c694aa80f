"""The `Plural-Forms` a new PO file gets: the gettext expression whose forms are exactly the CLDR
cardinal categories the locale's whole numbers fall into, in CLDR's order.

The expressions are gettext's, one per plural family (GNU gettext's manual lists most of them),
written with their forms in CLDR's category order; which one a locale gets is data, not a table of
languages: the expression that gives each number 0 .. TABLE_SIZE-1 the index of its CLDR category
among the locale's (msgstr[0] its first category in CLDR order, and so on). A category only
fractions reach (Russian `other`) has no index, as gettext's `n` is a whole number. A locale no expression fits is refused with the reason, so that
no file gets a Plural-Forms that picks the wrong form.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable

from parlance_i18n.icu.plurals import CATEGORIES, TABLE_SIZE, plural_rules
from parlance_i18n.locales import LocaleTag

__all__ = ["plural_forms_header"]

_EXPRESSIONS = (
    "0",                                                                          # ja, zh, ko, vi, th, id
    "n != 1",                                                                     # en, de, nl, sv, es, it
    "n > 1",                                                                      # fr, pt, hi
    "n%10==1 && n%100!=11 ? 0 : 1",                                               # is, mk
    "n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2",   # ru, uk, be, sr, hr, bs
    "n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2",           # pl
    "n==1 ? 0 : n>=2 && n<=4 ? 1 : 2",                                            # cs, sk
    "n%10==1 && (n%100<11 || n%100>19) ? 0 : n%10>=2 && (n%100<11 || n%100>19) ? 1 : 2",  # lt
    "n%10==0 || (n%100>=11 && n%100<=19) ? 0 : n%10==1 && n%100!=11 ? 1 : 2",     # lv
    "n==1 ? 0 : n==0 || (n%100>=2 && n%100<=19) ? 1 : 2",                         # ro, mo
    "n==1 ? 0 : n==2 ? 1 : 2",                                                    # he, iu, se
    "n==0 ? 0 : n==1 ? 1 : 2",                                                    # ksh, lag
    "n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3",                 # sl, dsb, hsb
    "n==1 || n==11 ? 0 : n==2 || n==12 ? 1 : (n>=3 && n<=10) || (n>=13 && n<=19) ? 2 : 3",  # gd
    "n==1 ? 0 : n==2 ? 1 : n>=3 && n<=6 ? 2 : n>=7 && n<=10 ? 3 : 4",             # ga
    "n==1 ? 0 : n==2 ? 1 : n==0 || (n%100>=3 && n%100<=10) ? 2 : n%100>=11 && n%100<=19 ? 3 : 4",  # mt
    "n%10==1 && n%100!=11 && n%100!=71 && n%100!=91 ? 0 : n%10==2 && n%100!=12 && n%100!=72 && n%100!=92 ? 1 : "
    "(n%10==3 || n%10==4 || n%10==9) && (n%100<10 || n%100>19) && (n%100<70 || n%100>79) && (n%100<90 || n%100>99) "
    "? 2 : 3",                                                                    # br
    "n==1 ? 0 : n==0 || (n%100>=1 && n%100<=19) ? 1 : 2",                         # ro, mo (CLDR 2024)
    "n%10!=4 && n%10!=6 && n%10!=9 ? 0 : 1",                                      # fil, ceb
    "n%10==1 ? 0 : n%10==2 ? 1 : n%20==0 ? 2 : 3",                                # gv
    "n==0 || n==1 ? 0 : n>=2 && n<=10 ? 1 : 2",                                   # shi
    "n<=1 || (n>=11 && n<=99) ? 0 : 1",                                           # tzm
    "n==0 ? 0 : n==1 ? 1 : n%100==2 || n%100==22 || n%100==42 || n%100==62 || n%100==82 || (n%1000==0 && "
    "((n%100000>=1000 && n%100000<=20000) || n%100000==40000 || n%100000==60000 || n%100000==80000)) || "
    "(n!=0 && n%1000000==100000) ? 2 : n%100==3 || n%100==23 || n%100==43 || n%100==63 || n%100==83 ? 3 : "
    "n%100==1 || n%100==21 || n%100==41 || n%100==61 || n%100==81 ? 4 : 5",       # kw

    "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5",  # ar
    "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n==3 ? 3 : n==6 ? 4 : 5",                   # cy
)


@functools.cache
def _compiled(expression: str) -> Callable[[int], int]:
    return gettext.c2py(expression)


@functools.lru_cache(maxsize=64)
def plural_forms_header(tag: LocaleTag) -> str:
    """`nplurals=N; plural=EXPRESSION;` for `tag`; ValueError naming the locale when no expression
    splits whole numbers as its CLDR rules do."""
    categories = plural_rules(tag).cardinal_table
    reached = [category for category in CATEGORIES if category in categories]
    wanted = [reached.index(category) for category in categories]
    for expression in _EXPRESSIONS:
        function = _compiled(expression)
        if [function(n) for n in range(TABLE_SIZE)] == wanted:
            return f"nplurals={len(reached)}; plural=({expression});"
    raise ValueError(f"no gettext plural expression is known to pick {tag.code}'s plural forms as CLDR does: start "
                     "the file with msginit (it writes Plural-Forms), then write again")
