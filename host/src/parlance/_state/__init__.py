"""Where a server keeps what its replicas share: `[state]`.

`engine` says what a state engine does and picks one from the config; `embedded` is the default, in
this process's memory; `postgres` is the shared engine (`[state] url = "postgresql://…"`), with
`request_keys` (2026-07-28 `requestState` sealed by one replica, opened by another) and `events`
(resumable streams any replica can replay).
"""
