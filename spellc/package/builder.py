"""``spellc package DIR``: an agent package's source folder → a standard wheel (packages.md §3).

Steps, in the spec's order, each failing with a message naming the file:

1. read and check ``spell-package.edn``; flatten each agent profile with the turn
   loop's own loader (``:base`` chains resolved, ``{:file …}`` prompts inlined) and
   check that each namespace reference resolves;
2. compile every ``lib/**/*.spl`` into a module whose fns are already compiled
   (``library.compiled_module_source``), shipping the ``.spl`` next to it for the
   incompatible-spellc fallback and for error positions;
3. read ``modules/*.spl`` strictly (never compiled or run) and ship their text;
4. pre-compile the fixed opening program (``opening``: the root program every ``:prompt``
   run starts from, code objects for the building Python, bound at run time to the
   program actually read);
5. ship ``prompts/`` and ``skills/`` (checked) as package data;
6. run ``tests/`` unless told not to;
7. write the wheel (``wheel.write_wheel``) with the ``spellc.agents``,
   ``spellc.modules``, ``spellc.skills`` (and, if asked, ``console_scripts``) entry points.

Layout inside the wheel (import package ``spellpkg_<name>``): ``__init__.py``
(``PACKAGE`` and one ``agent_<name>`` object per agent), ``__main__.py``,
``profiles/<agent>.edn`` (flattened), ``_lib_<ref>.py`` + ``lib/<ref>.spl``,
``opening.<cache tag>.code``, ``modules/``, ``skills/``, ``prompts/``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Final, Optional, TextIO

from spell_runtime.data import SpellMap
from spell_runtime.printer import pr_str

from .library import Library, LibraryError, load_from_source, read_library
from .manifest import Manifest, read_manifest
from .wheel import WheelSpec, write_wheel

SPELL_SUFFIX: Final = ".spl"


class PackageBuildError(Exception):
    """A package that cannot be built; ``str(e)`` says why, naming the file."""


class PackageTestsFailed(PackageBuildError):
    """The package's Spell tests failed (the report is the message)."""


@dataclass
class BuildResult:
    wheel: str
    manifest: Manifest
    tests_run: int = 0
    notes: list[str] = field(default_factory=list)


def spellc_requirement() -> str:
    """``spellc>=X.Y.Z,<next``: the releases that share this one's compiled-code format by version rules."""
    from .. import __version__

    parts = [int(p) for p in re.findall(r"\d+", __version__)[:3]] + [0, 0]
    major, minor = parts[0], parts[1]
    upper = "%d.%d" % (major, minor + 1) if major == 0 else "%d" % (major + 1)
    return "spellc>=%s,<%s" % (__version__, upper)


def module_name_for(ref: str) -> str:
    """``lib/tally`` → ``_lib_tally``; ``lib/text/fold-x`` → ``_lib_text__fold_x``."""
    rest = ref[len("lib/"):] if ref.startswith("lib/") else ref
    return "_lib_" + rest.replace("/", "__").replace("-", "_")


def _library_refs(root: str) -> list[str]:
    lib_root = os.path.join(root, "lib")
    refs: list[str] = []
    for here, dirs, files in os.walk(lib_root):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SPELL_SUFFIX):
                rel = os.path.relpath(os.path.join(here, name), root)
                refs.append(rel[: -len(SPELL_SUFFIX)].replace(os.sep, "/"))
    return refs


def _data_files(root: str, folder: str) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    base = os.path.join(root, folder)
    for here, dirs, files in os.walk(base):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(here, name)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, root).replace(os.sep, "/")] = fh.read()
    return out


def build_package(root: str, out_dir: str, run_tests: bool = True, log: Optional[TextIO] = None) -> BuildResult:
    """Build the wheel of the package folder ``root`` into ``out_dir`` (raises ``ManifestError``,
    ``PackageBuildError``)."""
    from ..loop.profiles import load_agent_profile
    from ..providers.registry import ProfileError
    from .installed import PROFILE_DIR, build_stamp, code_blob, code_file_name
    from .library import POSITIONS_SUFFIX
    from .namespaces import PYTHON_PREFIX, split_namespaces

    root = os.path.abspath(root)
    manifest = read_manifest(root)
    imp = manifest.import_name
    files: dict[str, bytes] = {}
    result_notes: list[str] = []

    # 2. libraries (read first: profiles are checked against them)
    libraries: dict[str, Library] = {}
    for ref in _library_refs(root):
        path = os.path.join(root, *ref.split("/")) + SPELL_SUFFIX
        try:
            libraries[ref] = read_library(path, ref.rsplit("/", 1)[-1])
        except LibraryError as e:
            raise PackageBuildError(str(e).replace(root + os.sep, "")) from None
    module_names: dict[str, str] = {}
    for ref in libraries:
        name = module_name_for(ref)
        if name in module_names.values():
            raise PackageBuildError("lib: two libraries map to the same module name %s" % name)
        module_names[ref] = name

    # 1. profiles, flattened, every namespace reference checked
    agent_docs: dict[str, str] = {}
    used_libraries: dict[str, str] = {}
    for agent in manifest.agents:
        path = manifest.profile_path(agent)
        try:
            profile = load_agent_profile(path)
            lib_refs, others = split_namespaces(profile.namespaces)
            _check_effect_refs(others)
        except ProfileError as e:
            raise PackageBuildError("agents/%s.agent.edn: %s" % (agent, e.message)) from None
        for alias, ref in lib_refs.items():
            if ref.startswith(PYTHON_PREFIX):
                continue  # a Python/Hy module: imported when the agent runs, not shipped by the package
            if ref not in libraries:
                raise PackageBuildError("agents/%s.agent.edn: namespace %s names %s, but there is no %s.spl"
                                        % (agent, alias, ref, ref))
            used_libraries.setdefault(alias, ref)
        values = dict(profile.values)
        values.setdefault("agent-name", agent)
        description = values.get("agent-description")
        agent_docs[agent] = description if isinstance(description, str) else ""
        flat = SpellMap.from_pairs((_keyword(k), _spell_value(v)) for k, v in values.items())
        files["%s/%s/%s.edn" % (imp, PROFILE_DIR, agent)] = (pr_str(flat) + "\n").encode("utf-8")

    for ref, library in libraries.items():
        from .library import compiled_module_source

        module = module_names[ref]
        try:
            compiled = compiled_module_source(library, ref + SPELL_SUFFIX, module)
        except Exception as e:  # noqa: BLE001 - a compile failure names the library
            raise PackageBuildError("%s%s: cannot compile: %s" % (ref, SPELL_SUFFIX, e)) from None
        files["%s/%s.py" % (imp, module)] = compiled.source.encode("utf-8")
        files["%s/%s" % (imp, code_file_name(module))] = code_blob(compiled.source, "%s/%s.py" % (imp, module))
        if compiled.positions is not None:
            files["%s/%s%s.py" % (imp, module, POSITIONS_SUFFIX)] = compiled.positions.encode("utf-8")
        files["%s/%s%s" % (imp, ref, SPELL_SUFFIX)] = library.text.encode("utf-8")

    # 3. installable modules, read strictly
    module_entries: dict[str, str] = {}
    for arc, data in _data_files(root, "modules").items():
        if not arc.endswith(SPELL_SUFFIX):
            continue
        _check_module(os.path.join(root, arc), arc)
        module_entries[os.path.basename(arc)[: -len(SPELL_SUFFIX)]] = imp
        files["%s/%s" % (imp, arc)] = data

    # 4. the opening program (one per package: the root program's text is the same for every agent)
    from .opening import OpeningError, compile_opening, opening_file_name

    try:
        files["%s/%s" % (imp, opening_file_name())] = compile_opening()
    except OpeningError as e:
        result_notes.append("opening program not precompiled (%s); runs compile it" % e)

    # 5. prompts and skills as package data
    for arc, data in _data_files(root, "prompts").items():
        files["%s/%s" % (imp, arc)] = data
    skill_entries: dict[str, str] = {}
    for arc, data in _data_files(root, "skills").items():
        parts = arc.split("/")
        if len(parts) == 3 and parts[2] == "SKILL.md":
            from spell_runtime.skills import check_skill

            try:
                check_skill(parts[1], data.decode("utf-8"), arc)
            except (ValueError, UnicodeDecodeError) as e:
                raise PackageBuildError("%s: %s" % (arc, e)) from None
            skill_entries[parts[1]] = imp
        files["%s/%s" % (imp, arc)] = data

    # 6. tests
    tests_run = 0
    if run_tests:
        tests_run = _run_tests(root, libraries, used_libraries, log)
    else:
        result_notes.append("tests not run (--no-test)")

    # 7. the wheel
    stamp = build_stamp()
    files["%s/__init__.py" % imp] = _init_source(manifest, stamp, agent_docs, module_names).encode("utf-8")
    files["%s/__main__.py" % imp] = _main_source(manifest).encode("utf-8")
    entry_points: dict[str, dict[str, str]] = {
        "spellc.agents": {a: "%s:%s" % (imp, agent_attr(a)) for a in manifest.agents},
        "spellc.modules": module_entries,
        "spellc.skills": skill_entries,
    }
    if manifest.console_script:
        entry_points["console_scripts"] = {manifest.console_script: "%s.__main__:main" % imp}
    spec = WheelSpec(imp, manifest.version, manifest.description, requires_dist=[spellc_requirement()],
                     entry_points=entry_points, generator="spellc " + stamp["spellc"])
    return BuildResult(write_wheel(out_dir, spec, files), manifest, tests_run, result_notes)


def agent_attr(agent: str) -> str:
    return "agent_" + agent.replace("-", "_")


def _keyword(name: str) -> object:
    from spell_runtime.data import Keyword

    return Keyword(name)


def _spell_value(value: object) -> object:
    """Profile values as Spell data (merged ``:namespaces`` are Python dicts after flattening)."""
    if isinstance(value, dict):
        return SpellMap.from_pairs((k, _spell_value(v)) for k, v in value.items())
    return value


def _check_effect_refs(refs: dict[str, object]) -> None:
    from spell_runtime.effects import EffectContext

    from ..loop.namespaces import resolve_namespaces

    with EffectContext() as effects:
        resolve_namespaces(refs, effects)


def _check_module(path: str, arc: str) -> None:
    from spell_runtime.modfiles import ModuleFile, ModuleFileError, read_definition

    def read() -> str:
        with open(path, encoding="utf-8") as fh:
            return fh.read()

    name = os.path.basename(arc)[: -len(SPELL_SUFFIX)]
    try:
        read_definition(ModuleFile(name, arc, SpellMap(), read))
    except ModuleFileError as e:
        raise PackageBuildError(str(e)) from None


def _test_files(root: str) -> list[str]:
    """The package's Spell test files: ``tests/**`` names matching ``spellc test``'s patterns, sorted."""
    import fnmatch

    from ..testing.plugin import DEFAULT_PATTERNS

    found: list[str] = []
    for here, dirs, files in os.walk(os.path.join(root, "tests")):
        dirs.sort()
        for name in sorted(files):
            if any(fnmatch.fnmatch(name, pattern) for pattern in DEFAULT_PATTERNS):
                found.append(os.path.join(here, name))
    return found


FAILING_OUTCOMES: Final = ("failed", "error")


def _run_tests(root: str, libraries: dict[str, Library], aliases: dict[str, str], log: Optional[TextIO]) -> int:
    """Run the package's tests with ``spellc.testing`` (testing.md): the same collection, assertions and
    reports as ``spellc test``, with the library namespaces the agents use bound in each file."""
    from spell_runtime.data import Symbol
    from spell_runtime.errors import SpellError

    from ..testing.collection import CollectionError
    from ..testing.runner import run_file

    try:
        maps = {Symbol(alias): load_from_source(libraries[ref], ref + SPELL_SUFFIX) for alias, ref in aliases.items()}
    except SpellError as e:
        raise PackageBuildError("cannot load libraries for the tests: %s" % e.message) from None
    results = []
    problems: list[str] = []
    here = os.getcwd()
    os.chdir(root)  # reports name files as tests/x.spl, relative to the package folder
    try:
        for path in _test_files(root):
            try:
                results.extend(run_file(os.path.relpath(path, root), library=maps))
            except CollectionError as e:
                problems.append("ERROR collecting %s" % e)
    finally:
        os.chdir(here)
    bad = [r for r in results if r.outcome in FAILING_OUTCOMES]
    if bad or problems:
        total = len(results) + len(problems)
        raise PackageTestsFailed("%d of %d Spell tests failed; no wheel written\n%s" % (
            len(bad) + len(problems), total, "\n".join([*problems, *(r.report.rstrip() for r in bad)])))
    if log is not None:
        log.write("%d Spell tests passed\n" % len(results))
    return len(results)


def _init_source(manifest: Manifest, stamp: dict[str, str], agents: dict[str, str],
                 module_names: dict[str, str]) -> str:
    lines = [
        '"""Spell agent package %s %s, built by spellc %s. Generated by `spellc package`; do not edit."""'
        % (manifest.name, manifest.version, stamp["spellc"]),
        "",
        "from spellc.package.installed import PackageInfo as _PackageInfo",
        "",
        "PACKAGE = _PackageInfo(",
        "    import_name=__name__,",
        "    name=%r," % manifest.name,
        "    version=%r," % manifest.version,
        "    description=%r," % manifest.description,
        "    stamp=%r," % stamp,
        "    agents=%r," % agents,
        "    default_agent=%r," % manifest.default_agent,
        "    libraries=%r," % module_names,
        ")",
        "",
    ]
    for agent in manifest.agents:
        lines.append("%s = PACKAGE.agent(%r)" % (agent_attr(agent), agent))
    return "\n".join(lines) + "\n"


def _main_source(manifest: Manifest) -> str:
    return ('"""`python -m %s`: run the package\'s agent (default %s) like `spellc run --agent`."""\n\n'
            "from spellc.package.installed import run_main\n\nfrom . import PACKAGE\n\n\n"
            "def main() -> None:\n    run_main(PACKAGE)\n\n\n"
            'if __name__ == "__main__":\n    main()\n') % (manifest.import_name, manifest.default_agent)
