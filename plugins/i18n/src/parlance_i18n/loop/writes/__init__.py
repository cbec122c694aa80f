"""Writing translations, renames and deletions into a project's catalog files: planned, then applied.

A plan reads every file it needs from disk (never what a `ProjectLocale` cached) and computes, per
file, the bytes it will have; nothing is written until `apply`. A dry run is a plan and its diff.

`plan_set_messages` puts each message in the file of the target locale that has its key, else in
the file of the same catalog (and gettext domain) whose source-locale counterpart has it. It
applies every message to the file's Document in memory, reads the new bytes back with the format,
and checks each message as the file will hold it (`validate.check_candidate`). The source files
and the bytes read back are read for the messages written (`CatalogFormat.read_keys`: the whole
file is checked, the entries of the other keys may be skipped). Refused messages
are left out and the file is planned again without them, so a refused message never reaches a
file while the valid ones of the same call are written.

`plan_rename_key` and `plan_delete_keys` work across every locale given, and refuse the whole
operation on a conflict found when planning (the new key exists somewhere, the old one nowhere).
`apply` writes file by file: when one file cannot be written (someone changed it so the edit no
longer applies, or the disk refuses), the files before it stay written and the outcomes say which
file was refused, so a rename can be left done in some locales; run it again once that file is fixed.

`apply` writes each changed file with `store.edit_file` (atomic replace, per-file locks), after
checking that every one leads inside its catalog's folder (none is written when one does not). The
change it applies is the plan's edits, replayed on whatever the file holds when it is written: if
someone changed the file since it was planned, their change stays and the planned edits are made
again on top of it; when they no longer apply (the key was deleted meanwhile) that file's messages
are refused with the reason and the file is left as it is.

After `apply`, what a `ProjectLocale` read from a written file is stale: reload every locale whose
`files` include a path in the result's `files` (a multi-locale file, `.xcstrings`, is shared by all
its locales).

The modules: `plan` (a plan, its replay and `apply`), `messages` (`plan_set_messages`), `keys`
(`plan_rename_key`, `plan_delete_keys`) and `files` (what a plan reads from disk).
"""

from parlance_i18n.loop.writes.keys import plan_delete_keys, plan_rename_key
from parlance_i18n.loop.writes.messages import GlossaryCheck, plan_set_messages
from parlance_i18n.loop.writes.plan import KeyOutcome, Status, WritePlan, apply

__all__ = [
    "GlossaryCheck",
    "KeyOutcome",
    "Status",
    "WritePlan",
    "apply",
    "plan_delete_keys",
    "plan_rename_key",
    "plan_set_messages",
]
