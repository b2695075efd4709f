"""Namespace maps, partitions, documentation keys, registration, effect counting and the gate text."""

from __future__ import annotations

from pathlib import Path

import pytest
from spell_runtime.core.registry import EnvFn, info_of
from spell_runtime.data import Keyword, SpellMap
from spell_runtime.effects import EFFECT_NAMESPACES, EffectContext, effect_namespaces, gated_message
from spell_runtime.effects.namespace_maps import IO_EXEC, IO_READ, IO_WRITE

K = Keyword
DOC_KEYS = {K("short-docs"), K("docs"), K("detail")}


def members(ns: SpellMap) -> set[str]:
    return {k.name for k in ns.keys() if k not in DOC_KEYS}


def test_gated_message_is_the_product_string() -> None:
    assert gated_message("io/ls", "io") == "io/ls: io/ is an effect namespace - use it in the trailing expression via eval"
    assert gated_message("globals", "globals") == (
        "globals: globals/ is an effect namespace - use it in the trailing expression via eval")


def test_default_namespaces_and_docs() -> None:
    with EffectContext() as ctx:
        nss = effect_namespaces(ctx)
        assert list(nss) == ["io", "web", "globals"]
        for ns in nss.values():
            assert type(ns.get(K("short-docs"))) is str
            assert type(ns.get(K("docs")).get(K("guide"))) is str
            detail = ns.get(K("detail"))
            assert {k.name for k in detail.keys()} <= members(ns)
        assert members(nss["web"]) == {"search", "fetch", "config"}
        assert members(nss["globals"]) == {"get", "set", "update", "pop", "keys", "all", "wait-until"}
        assert members(nss["io"]) == set(IO_READ) | set(IO_WRITE) | set(IO_EXEC) | {"event-send"}


def test_partitions_share_member_objects_with_io() -> None:
    with EffectContext() as ctx:
        nss = effect_namespaces(ctx, ("stdlib/io", "stdlib/io-read", "io-write", "io-exec"))
        assert list(nss) == ["io", "io-read", "io-write", "io-exec"]
        assert members(nss["io-read"]) == set(IO_READ)
        assert members(nss["io-write"]) == set(IO_WRITE)
        assert members(nss["io-exec"]) == set(IO_EXEC)
        assert nss["io-read"].get(K("slurp")) is nss["io"].get(K("slurp"))


def test_maps_are_cached_per_context_and_distinct_between_contexts() -> None:
    with EffectContext() as a, EffectContext() as b:
        assert effect_namespaces(a)["io"] is effect_namespaces(a)["io"]
        assert a.namespace("io").get(K("slurp")) is not b.namespace("io").get(K("slurp"))


def test_unknown_namespace_is_rejected() -> None:
    with EffectContext() as ctx, pytest.raises(ValueError, match="unknown effect namespace"):
        effect_namespaces(ctx, ("agents",))
    assert set(EFFECT_NAMESPACES) == {"io", "io-read", "io-write", "io-exec", "web", "globals", "patterns"}


def test_members_are_registered_with_spell_names_and_arities() -> None:
    with EffectContext() as ctx:
        io = ctx.namespace("io")
        info = info_of(io.get(K("read-file")))
        assert info is not None and info.name == "io/read-file"
        assert (info.min_args, info.max_args) == (1, 4)
        sh = info_of(io.get(K("sh")))
        assert sh is not None and (sh.min_args, sh.max_args) == (1, None)
        update = ctx.namespace("globals").get(K("update"))
        assert isinstance(update, EnvFn)
        uinfo = info_of(update)
        assert uinfo is not None and uinfo.env and (uinfo.min_args, uinfo.max_args) == (2, 2)
        cwd_info = info_of(io.get(K("cwd")))
        assert cwd_info is not None and (cwd_info.min_args, cwd_info.max_args) == (0, 0)


def test_close_unregisters_members() -> None:
    ctx = EffectContext()
    fn = ctx.namespace("io").get(K("slurp"))
    assert info_of(fn) is not None
    ctx.close()
    assert info_of(fn) is None and ctx.closed


def test_every_effect_call_is_counted(tmp_path: Path) -> None:
    with EffectContext(cwd=str(tmp_path)) as ctx:
        io = ctx.namespace("io")
        before = ctx.effect_count
        io.get(K("exists?"))("x")
        io.get(K("slurp"))("missing")
        ctx.namespace("globals").get(K("get"))(K("roles"))
        assert ctx.effect_count == before + 3


def test_arity_mistakes_surface_as_type_errors() -> None:
    with EffectContext() as ctx, pytest.raises(TypeError):
        ctx.namespace("io").get(K("read-file"))("a", 1, 2, None, 5)


def test_dropped_context_is_unregistered_and_its_members_refuse() -> None:
    import gc

    from spell_runtime.errors import HostError

    ctx = EffectContext()
    fn = ctx.namespace("io").get(K("cwd"))
    assert info_of(fn) is not None
    del ctx
    gc.collect()
    assert info_of(fn) is None
    with pytest.raises(HostError, match="io/cwd: the run that provided this effect has ended"):
        fn()
