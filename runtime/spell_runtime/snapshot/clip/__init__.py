"""The clipping core of bounded snapshots, typed for mypyc (see ``spell_runtime.snapshot.backend``)."""
