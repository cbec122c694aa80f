"""`python -m parlance` is the `parlance` command."""

from parlance.cli import main

raise SystemExit(main())
