"""The pure builtin library, one module per family. ``spell_runtime.library.load()`` registers them all."""
