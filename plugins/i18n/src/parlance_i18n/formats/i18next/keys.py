"""Where each i18next dot key is written in its JSON file, and where a new key goes.

An i18next file names a message by its dot key (`cart.items_one`), which the file may write as
nested objects (`"cart": {"items_one": ...}`), as one literal key (`"cart.items_one": ...`), or
half and half. `KeyPaths` maps each dot key to the path of the member that holds it (the shortest
spelling when there are several) and decides the path of a new key from the shape of the file
around it (see `path_for`).

Deciding that shape asks, for one container, whether any key lies below it and whether any of its
members' names holds a dot. Answering by a walk over every key made each add cost a scan of the
whole file (10 ms for 20,000 keys, so half a second for 50 adds); instead the names below each
container are counted once, on the first add or delete, and the counts are kept up to date by each
add and delete, so either costs a few dictionary steps per level of its path.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["KeyPaths", "Path"]

Path = tuple[str, ...]


class KeyPaths:
    """The dot keys of one i18next file and their paths, kept in step with the document's edits."""

    def __init__(self, leaves: Iterable[Path]) -> None:
        paths: dict[str, Path] = {}
        for path in leaves:
            key = ".".join(path)
            known = paths.get(key)
            if known is None or len(path) < len(known):
                paths[key] = path
        self._paths = paths
        # container path -> member name -> how many keys' paths go through that member; a container
        # is listed only while some key lies below it. Built on the first add or delete.
        self._below: dict[Path, dict[str, int]] | None = None
        self._dotted: dict[Path, int] = {}  # container path -> how many of its member names hold a dot

    def keys(self) -> list[str]:
        return list(self._paths)

    def get(self, key: str) -> Path | None:
        return self._paths.get(key)

    def __contains__(self, key: str) -> bool:
        return key in self._paths

    def path_for(self, key: str) -> Path:
        """The path a new `key` is written at: into the deepest existing object its dots name, then
        as one literal key in a flat object (one whose member names hold dots, or a root with no
        objects) or as nested objects otherwise."""
        below = self._counts()
        container: Path = ()
        rest = key
        while "." in rest:
            head, _, tail = rest.partition(".")
            inside = (*container, head)
            if inside not in below:
                break
            container, rest = inside, tail
        flat = self._dotted.get(container, 0) > 0 or (not container and len(below) == 1 and () in below)
        if "." in rest and not flat:
            return (*container, *rest.split("."))
        return (*container, rest)

    def add(self, key: str, path: Path) -> None:
        """Record that `key` is now written at `path` (the key is new)."""
        self._paths[key] = path
        if self._below is not None:
            self._count(path, 1)

    def remove(self, key: str) -> Path:
        """Forget `key` (KeyError when unknown) and answer the path it was written at."""
        self._counts()
        path = self._paths.pop(key)
        self._count(path, -1)
        return path

    def _counts(self) -> dict[Path, dict[str, int]]:
        if self._below is None:  # one pass, inlined: this is the one step that visits every key
            below: dict[Path, dict[str, int]] = {}
            for path in self._paths.values():
                for depth in range(len(path)):
                    names = below.get(path[:depth])
                    if names is None:
                        names = below[path[:depth]] = {}
                    name = path[depth]
                    names[name] = names.get(name, 0) + 1
            self._dotted = {container: dotted for container, names in below.items()
                            if (dotted := sum("." in name for name in names))}
            self._below = below
        return self._below

    def _count(self, path: Path, step: int) -> None:
        below = self._below
        assert below is not None
        for depth, name in enumerate(path):
            container = path[:depth]
            names = below.get(container)
            if names is None:
                names = below[container] = {}
            count = names.get(name, 0) + step
            if count:
                names[name] = count
            else:
                del names[name]
                if not names:
                    del below[container]
            appeared_or_left = count == 1 if step == 1 else count == 0
            if appeared_or_left and "." in name:
                self._dotted[container] = self._dotted.get(container, 0) + step
