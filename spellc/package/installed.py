"""What an installed agent package calls at run time: its agents' profiles and its precompiled libraries.

The ``__init__.py`` that ``spellc package`` writes holds one ``PackageInfo``
and one ``PackagedAgent`` per agent (the objects the ``spellc.agents`` entry
points name), so listing agents imports nothing but this module.

Compatibility (packages.md §3): a package records the spellc version, the
compiler version and a fingerprint of the builtin names its code was compiled
against (``build_stamp``). Compiled library modules are used only when all
three match the running spellc; otherwise — or when importing a compiled module
fails — the package says so in one line on stderr and compiles the ``.spl``
sources it ships, so stale code never runs silently.
"""

from __future__ import annotations

import importlib
import importlib.util
import marshal
import sys
import types
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final, Optional

from spell_runtime.data import SpellMap

from ..loop.profiles import AgentProfile, items_of, name_of
from .library import LibraryError, load_from_source, parse_library

PROFILE_DIR: Final = "profiles"
_warned: set[str] = set()


def builtins_fingerprint() -> str:
    """A short checksum of the builtin names compiled code may reference statically.

    CRC-32 and Adler-32 of the sorted names, not a cryptographic hash: this guards against an
    accidental mismatch, not an adversary, and ``hashlib`` would load OpenSSL into every packaged
    agent's start (about 3.7 MB of resident memory, the whole of the package's memory excess over
    its source folder that issue 15 measured). ``zlib`` is already loaded by then.
    """
    import zlib

    from spell_runtime.core.registry import BUILTINS
    from spell_runtime.library import load

    load()
    data = "\n".join(sorted(str(sym) for sym in BUILTINS)).encode("utf-8")
    return "%08x%08x" % (zlib.crc32(data), zlib.adler32(data))


def build_stamp() -> dict[str, str]:
    """What a package records about the spellc that compiled it."""
    from .. import __version__
    from ..compiler import COMPILER_VERSION

    return {"spellc": __version__, "compiler": COMPILER_VERSION, "builtins": builtins_fingerprint()}


@dataclass
class PackageInfo:
    """One installed agent package."""

    import_name: str
    name: str
    version: str
    description: str
    stamp: dict[str, str]
    agents: dict[str, str]
    """Agent name → description."""
    default_agent: str
    libraries: dict[str, str]
    """Library reference (``lib/tally``) → compiled module name inside the package."""
    _compatible: Optional[bool] = field(default=None, repr=False)

    def agent(self, name: str) -> PackagedAgent:
        return PackagedAgent(self, name, self.agents.get(name, ""))

    def incompatibility(self) -> Optional[str]:
        """Why the compiled code cannot be used here, or None."""
        here = build_stamp()
        for key in ("spellc", "compiler", "builtins"):
            if self.stamp.get(key) != here[key]:
                return "built by spellc %s (compiler %s, builtins %s), running spellc %s (compiler %s, builtins %s)" % (
                    self.stamp.get("spellc"), self.stamp.get("compiler"), self.stamp.get("builtins"),
                    here["spellc"], here["compiler"], here["builtins"])
        return None

    def read_text(self, *parts: str) -> str:
        return resources.files(self.import_name).joinpath(*parts).read_text(encoding="utf-8")


@dataclass
class PackagedAgent:
    """An agent of an installed package: what ``find_agent`` returns."""

    package: PackageInfo
    name: str
    description: str = ""

    def profile(self) -> AgentProfile:
        """The flattened agent profile, its libraries served by the package."""
        from ..reader import read_strict

        forms = read_strict(self.package.read_text(PROFILE_DIR, self.name + ".edn"),
                            "%s:%s/%s.edn" % (self.package.import_name, PROFILE_DIR, self.name))
        values = {name_of(k): v for k, v in items_of(forms[0])} if forms else {}
        values.setdefault("agent-name", self.name)
        return AgentProfile(values, None, PackageLibraries(self.package))


class PackageLibraries:
    """Library namespaces of an installed package: precompiled when compatible, else from the shipped sources."""

    def __init__(self, package: PackageInfo) -> None:
        self.package = package

    def namespace(self, name: str, ref: str) -> SpellMap:
        from spell_runtime.libns import library_namespace

        module_name = self.package.libraries.get(ref)
        if module_name is None:
            raise LibraryError("Unknown namespace reference: %s (not in package %s)" % (ref, self.package.name))
        reason = self.package.incompatibility() if self.package._compatible is None else (
            None if self.package._compatible else "incompatible")
        self.package._compatible = reason is None
        if reason is None:
            try:
                module = load_compiled(self.package.import_name, module_name)
                self._register_positions(module, name, ref)
                return library_namespace(name, module.FNS, module.DOCS, ref + ".spl")
            except Exception as e:  # noqa: BLE001 - any failure of compiled code: fall back to the sources
                reason = "its compiled %s failed to load (%s: %s)" % (ref, type(e).__name__, e)
        self._warn(reason)
        text = self.package.read_text(*(ref + ".spl").split("/"))
        return load_from_source(parse_library(text, ref + ".spl", name), ref + ".spl")

    def _register_positions(self, module: Any, name: str, ref: str) -> None:
        """Errors in the compiled module read ``lib/x.spl:L:C``, located in the shipped source (``libns``)."""
        from spell_runtime.libns import register_library_file

        from .library import source_locator

        display = ref + ".spl"
        locate = source_locator(lambda: self.package.read_text(*display.split("/")), display, name, module.FNS)
        filenames = {fn.code.__code__.co_filename for fn in module.FNS.values()
                     if hasattr(getattr(fn, "code", None), "__code__")}
        for filename in filenames or {getattr(module, "__file__", None) or ""}:
            register_library_file(filename, display, locate)

    def opening(self) -> Any:
        """The package's precompiled root program (``opening.Opening``) when its code can run here, else None."""
        from .opening import Opening, opening_file_name

        if self.package._compatible is None:
            self.package._compatible = self.package.incompatibility() is None
        if not self.package._compatible:
            return None
        try:
            blob = resources.files(self.package.import_name).joinpath(opening_file_name()).read_bytes()
        except OSError:
            return None
        return Opening.load(blob)

    def _warn(self, reason: str) -> None:
        if self.package.import_name in _warned:
            return
        _warned.add(self.package.import_name)
        print("spellc: package %s %s: %s; compiling its shipped sources instead"
              % (self.package.name, self.package.version, reason), file=sys.stderr)


def code_file_name(module_name: str) -> str:
    """``_lib_tally.cpython-311.code``: the module's code object for one Python (its cache tag)."""
    return "%s.%s.code" % (module_name, sys.implementation.cache_tag)


def code_blob(source: str, filename: str) -> bytes:
    """The marshalled code object of a compiled library module, headed by this Python's bytecode magic."""
    return importlib.util.MAGIC_NUMBER + marshal.dumps(compile(source, filename, "exec"))


def load_compiled(package: str, module_name: str) -> Any:
    """Import a compiled library module, from its shipped code object when this Python can run it.

    Why ship code objects: Python's own ``.pyc`` cache is absent wherever bytecode writing is off
    (``PYTHONDONTWRITEBYTECODE``, read-only installs), and compiling the generated ``.py`` costs more
    than compiling the library from Spell. The code object was compiled from the very ``.py`` shipped
    next to it, so both paths run the same code; another Python (different magic) imports the ``.py``.
    """
    fullname = "%s.%s" % (package, module_name)
    if fullname in sys.modules:
        return sys.modules[fullname]
    blob = resources.files(package).joinpath(code_file_name(module_name))
    magic = importlib.util.MAGIC_NUMBER
    code: Any = None
    try:
        with blob.open("rb") as fh:  # marshal.load reads the file as it goes: no second copy in memory
            if fh.read(len(magic)) == magic:
                code = marshal.load(fh)
    except OSError:
        code = None
    if code is None:
        return importlib.import_module(fullname)
    module = types.ModuleType(fullname)
    module.__package__ = package
    module.__file__ = str(resources.files(package).joinpath(module_name + ".py"))
    sys.modules[fullname] = module
    try:
        exec(code, module.__dict__)
    except BaseException:
        del sys.modules[fullname]
        raise
    return module


def run_main(package: PackageInfo, argv: Optional[list[str]] = None) -> Any:
    """``python -m spellpkg_<name> [--agent NAME] --prompt …``: ``spellc run`` with this package's agent."""
    from ..cli_run import run_command

    args = list(sys.argv[1:] if argv is None else argv)
    if "--agent" not in args and not any(a.startswith("--agent=") for a in args):
        args = ["--agent", "%s:%s" % (package.name, package.default_agent), *args]
    return run_command.main(args=args, prog_name="python -m " + package.import_name)
