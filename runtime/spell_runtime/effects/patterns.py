"""``patterns/``: installable run-local modules, five verbs (packages.md §1; the reference's ``spell.patterns``).

The registry of installed definitions is the run's globals map under
``:modules`` (as in the reference), so every agent of a run sees the same
modules and separate runs share nothing. Insertion and update are atomic swaps
on that map. Where definitions come from is ``spell_runtime.modfiles``
(project, user, installed packages, bundled — first match wins, strict reading).

- ``(patterns/catalog)`` / ``(patterns/catalog :k)``: body-free summaries,
  ``{:module :installed? :doc :origin :functions {:f {:doc :params :requires :origin}}}``;
  never a ``:source``, so the catalog stays small however large the bodies are.
  In the full catalog a malformed file shows as ``{:module k :origin o :error "path: …"}``
  (spellc's choice: one bad file must not hide every other module); asking
  for that module by name raises.
- ``(patterns/install :k)`` / ``(patterns/install :k definition)``: insert if
  absent; never runs the source, never resets an existing (possibly edited)
  definition.
- ``(patterns/source :k)`` / ``(patterns/source :k :f)``: the complete installed definition / entry.
- ``(patterns/update :k f & args)``: ``(f current-or-nil & args)`` must give a valid
  definition, committed atomically (``f`` may run again under contention).
- ``(patterns/call :k :f & args)``: checks each ``:requires`` namespace is visible in
  the caller's scope (it grants nothing), evaluates the selected ``:source`` and applies it
  in the caller's dynamic scope.
"""

from __future__ import annotations

from typing import Any, Final, Optional

from ..context import context_of
from ..data import Keyword, SpellMap, Symbol
from ..data.vector import vec
from ..errors import HostError
from .args import reject
from .context import EffectContext

K_MODULES: Final = Keyword("modules")
K_MODULE: Final = Keyword("module")
K_INSTALLED: Final = Keyword("installed?")
K_DOC: Final = Keyword("doc")
K_FUNCTIONS: Final = Keyword("functions")
K_REQUIRES: Final = Keyword("requires")
K_SOURCE: Final = Keyword("source")
K_PARAMS: Final = Keyword("params")
K_ORIGIN: Final = Keyword("origin")
K_FNS: Final = Keyword("fns")
K_ERROR: Final = Keyword("error")
K_FUNCTION: Final = Keyword("function")
K_MISSING: Final = Keyword("missing")
K_KIND: Final = Keyword("kind")
K_ORIGIN_STORE: Final = Keyword("module-origins")
ORIGIN_CUSTOM: Final = SpellMap.from_pairs([(K_KIND, Keyword("custom"))])

SHORT: Final = "Installable run-local modules: catalog, install, source, update, call."
GUIDE: Final = """PATTERNS - Installable modules (effect namespace).

  (patterns/catalog)                    - discover modules without installing (no source bodies)
  (patterns/catalog module)             - one module's summary or nil
  (patterns/install module)             - install the discovered definition only if absent
  (patterns/install module definition)  - install a custom definition only if absent
  (patterns/source module)              - complete installed definition or nil
  (patterns/source module function)     - complete installed entry or nil
  (patterns/update module f & args)     - (f current-or-nil & args) -> next definition, validated
  (patterns/call module function & args) - run the installed source in the caller's scope

Definition: {:doc string :functions {:key {:doc string :requires [namespace-symbol ...]
                                         :source (fn [params] body...)}}}.
Discovery: <project>/.spell/modules, ~/.spell/modules, installed packages, bundled; :origin says which.
Requirements are checked, never granted. Save an edit with
(io/write-file ".spell/modules/k.spl" (pr-str (patterns/source :k)))."""
DETAIL: Final = {
    "catalog": "(patterns/catalog) or (patterns/catalog module): summaries with :module :installed? :doc :origin "
               "and :functions {:f {:doc :params :requires :origin}}; never a body. Unknown module -> nil.",
    "install": "(patterns/install module) or (patterns/install module definition): atomic insert if absent -> "
               "{:module k :installed? bool :fns [...]}. Never runs the source, never resets edits.",
    "source": "(patterns/source module) / (patterns/source module function): the complete installed definition "
              "or entry (executable source data), nil when missing.",
    "update": "(patterns/update module f & args): (f current-or-nil & args) must return the whole next "
              "definition; validated, then committed atomically -> {:module k :fns [...]}.",
    "call": "(patterns/call module function & args): checks the entry's :requires namespaces are visible "
            "(grants nothing), then applies its :source with the caller's dynamic scope.",
}


def _key(module: Any) -> Keyword:
    if type(module) is not Keyword:
        reject("Module name must be a keyword, got %s" % _pr(module))
    return module


def _pr(x: Any) -> str:
    from ..printer import pr_str

    return pr_str(x)


def _installed(ctx: EffectContext) -> SpellMap:
    found = ctx.globals.get(K_MODULES)
    return found if isinstance(found, SpellMap) else SpellMap()


def _fn_keys(definition: SpellMap) -> Any:
    return vec(sorted(definition.get(K_FUNCTIONS).keys(), key=lambda k: k.name))


def _checked(module: Keyword, definition: Any) -> SpellMap:
    from ..modfiles import ModuleFileError, check_definition

    try:
        return check_definition(definition)
    except ModuleFileError as e:
        raise HostError(e.message, SpellMap.from_pairs([(K_MODULE, module)])) from None


def _discover(ctx: EffectContext) -> dict[str, Any]:
    from ..modfiles import discovered

    return discovered(ctx.cwd)


def _load(module: Keyword, found: Any) -> SpellMap:
    """The definition of a discovered file; a malformed selected file raises with its path (no fallback)."""
    from ..modfiles import ModuleFileError, read_definition

    try:
        return read_definition(found)
    except ModuleFileError as e:
        raise HostError(str(e), SpellMap.from_pairs([(K_MODULE, module)])) from None


def _summary(module: Keyword, definition: SpellMap, installed: bool, origin: SpellMap) -> SpellMap:
    from ..modfiles import fn_params

    functions = []
    for k in sorted(definition.get(K_FUNCTIONS).keys(), key=lambda k: k.name):
        entry = definition.get(K_FUNCTIONS).get(k)
        functions.append((k, SpellMap.from_pairs([
            (K_DOC, entry.get(K_DOC)), (K_PARAMS, fn_params(entry.get(K_SOURCE))),
            (K_REQUIRES, entry.get(K_REQUIRES)), (K_ORIGIN, origin)])))
    return SpellMap.from_pairs([(K_MODULE, module), (K_INSTALLED, installed), (K_DOC, definition.get(K_DOC)),
                                (K_ORIGIN, origin), (K_FUNCTIONS, SpellMap.from_pairs(functions))])


def _origin_of(ctx: EffectContext, module: Keyword) -> SpellMap:
    origins = ctx.globals.get(K_ORIGIN_STORE)
    found = origins.get(module) if isinstance(origins, SpellMap) else None
    return found if isinstance(found, SpellMap) else ORIGIN_CUSTOM


def catalog(ctx: EffectContext, module: Any = None) -> Any:
    """Body-free discovery (see the module docstring)."""
    installed = _installed(ctx)
    files = _discover(ctx)
    if module is not None:
        key = _key(module)
        if installed.contains(key):
            return _summary(key, installed.get(key), True, _origin_of(ctx, key))
        found = files.get(key.name)
        if found is None:
            return None
        return _summary(key, _load(key, found), False, found.origin)
    names = sorted({*files, *(k.name for k in installed.keys() if type(k) is Keyword)})
    out = []
    for name in names:
        key = Keyword(name)
        if installed.contains(key):
            out.append(_summary(key, installed.get(key), True, _origin_of(ctx, key)))
            continue
        found = files[name]
        try:
            out.append(_summary(key, _load(key, found), False, found.origin))
        except HostError as e:
            out.append(SpellMap.from_pairs([(K_MODULE, key), (K_ORIGIN, found.origin), (K_ERROR, e.message)]))
    return vec(out)


def install(ctx: EffectContext, module: Any, definition: Any = None) -> SpellMap:
    """Insert atomically if absent; ``{:module k :installed? bool :fns [...]}``."""
    key = _key(module)
    if definition is None:
        current = _installed(ctx).get(key)
        if current is not None:
            return SpellMap.from_pairs([(K_MODULE, key), (K_INSTALLED, False), (K_FNS, _fn_keys(current))])
        found = _discover(ctx).get(key.name)
        if found is None:
            raise HostError("Unknown module; supply a custom definition to install",
                            SpellMap.from_pairs([(K_MODULE, key)]))
        definition, origin = _load(key, found), found.origin
    else:
        definition, origin = _checked(key, definition), ORIGIN_CUSTOM
    won = [False]

    def insert(state: SpellMap) -> SpellMap:
        modules = state.get(K_MODULES)
        modules = modules if isinstance(modules, SpellMap) else SpellMap()
        if modules.contains(key):
            won[0] = False
            return state
        won[0] = True
        origins = state.get(K_ORIGIN_STORE)
        origins = origins if isinstance(origins, SpellMap) else SpellMap()
        return state.assoc(K_MODULES, modules.assoc(key, definition)).assoc(K_ORIGIN_STORE, origins.assoc(key, origin))

    _, after = ctx.globals.swap(insert)
    return SpellMap.from_pairs([(K_MODULE, key), (K_INSTALLED, won[0]),
                                (K_FNS, _fn_keys(after.get(K_MODULES).get(key)))])


def source(ctx: EffectContext, module: Any, function: Any = None) -> Any:
    """The complete installed definition, or one entry of it; nil when missing."""
    definition = _installed(ctx).get(_key(module))
    if function is None or definition is None:
        return definition
    return definition.get(K_FUNCTIONS).get(function)


def update(ctx: EffectContext, D: Any, module: Any, f: Any, *args: Any) -> SpellMap:
    """Commit ``(f current-or-nil & args)`` after validating it."""
    from ..invoke import call

    key = _key(module)

    def step(state: SpellMap) -> SpellMap:
        modules = state.get(K_MODULES)
        modules = modules if isinstance(modules, SpellMap) else SpellMap()
        nxt = _checked(key, call(D, f, (modules.get(key), *args)))
        return state.assoc(K_MODULES, modules.assoc(key, nxt))

    _, after = ctx.globals.swap(step)
    return SpellMap.from_pairs([(K_MODULE, key), (K_FNS, _fn_keys(after.get(K_MODULES).get(key)))])


def call_module(ctx: EffectContext, D: Any, module: Any, function: Any, *args: Any) -> Any:
    """Apply the installed entry's source in the caller's scope, after checking its ``:requires``."""
    from ..hooks import eval_form
    from ..invoke import call

    key = _key(module)
    definition = _installed(ctx).get(key)
    entry = definition.get(K_FUNCTIONS).get(function) if definition is not None else None
    if entry is None:
        raise HostError("Module function is not installed",
                        SpellMap.from_pairs([(K_MODULE, key), (K_FUNCTION, function)]))
    for required in entry.get(K_REQUIRES):
        if not isinstance(_visible(D, required), SpellMap):
            raise HostError("Module function requires an unavailable namespace: %s" % required,
                            SpellMap.from_pairs([(K_MODULE, key), (K_FUNCTION, function), (K_MISSING, required)]))
    fn = eval_form(D, entry.get(K_SOURCE))
    return call(D, fn, args)


def _visible(D: Any, sym: Symbol) -> Optional[Any]:
    if sym in D:
        return D[sym]
    return context_of(D).builtin(sym)


def build(ctx: EffectContext) -> SpellMap:
    """The ``patterns/`` namespace map of one run."""
    from ..core.registry import namespace

    members = {
        "catalog": ctx.bind("patterns/catalog", catalog),
        "install": ctx.bind("patterns/install", install),
        "source": ctx.bind("patterns/source", source),
        "update": ctx.bind("patterns/update", update, env=True),
        "call": ctx.bind("patterns/call", call_module, env=True),
    }
    return namespace(members, short_docs=SHORT, guide=GUIDE, detail=DETAIL)
