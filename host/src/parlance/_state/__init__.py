"""Where a server keeps what its replicas share: `[state]`.

`engine` says what a state engine does and picks one from the config; `embedded` is the default, in
this process's memory. `postgres` is the shared engine (`[state] url = "postgresql://…"`): it keeps
the replicas connected to the database and tells each of the others' writes, and each thing they
share has a module of its own, so that each can be read (and tested) alone:

- `schema`: the tables, created on first use and migrated by version;
- `write_log`: a write call's transaction (idempotency claim, locks, log row, NOTIFY) and the history;
- `request_keys`: the key ring 2026-07-28 `requestState` is sealed with, so one replica opens what
  another sealed;
- `events`: resumable HTTP streams any replica can replay;
- `database`: what counts as the database not answering, and what clients and the log are told then.
"""
