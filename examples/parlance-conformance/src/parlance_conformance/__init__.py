"""The conformance fixture pack: `parlance_conformance.pack`."""
