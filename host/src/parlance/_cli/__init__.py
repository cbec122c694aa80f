"""The `parlance` command (private to the host; its entry point is `parlance.cli:main`).

    command_line    main(): the parser, the configuration and logging, the exit status
    commands        what each built-in command does (serve, packs, tools, call, config, ...)
    pack_commands   the commands packs contribute, each pack asked inside its error boundary
    client_config   `parlance client-config`: the client entry that starts Parlance, printed or merged
    install         `parlance install` / `uninstall`: packs into the environment the host runs in
    scaffold        `parlance new-pack`: a pack folder whose tests pass as generated
    demo            `parlance demo`: every installed pack over a real stdio connection

Nothing is imported here: a command imports what it needs when it runs, so `--help` stays fast.
"""
