"""Writing a standard ``py3-none-any`` wheel with the standard library (PEP 427, PEP 376 RECORD).

An agent package has no C code and no build step a backend could add, so
spellc writes the archive itself (``zipfile`` + ``hashlib``) instead of taking
a build dependency. The archive is reproducible: entries are sorted and stamped
with a fixed date, so the same inputs give the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import os
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

FIXED_DATE: Final = (1980, 1, 1, 0, 0, 0)
TAG: Final = "py3-none-any"


@dataclass
class WheelSpec:
    """What goes into a wheel besides its files."""

    distribution: str
    """Normalized distribution name with ``_`` (``spellpkg_research_agent``)."""
    version: str
    summary: str = ""
    requires_python: str = ">=3.11"
    requires_dist: list[str] = field(default_factory=list)
    entry_points: dict[str, dict[str, str]] = field(default_factory=dict)
    generator: str = "spellc"


def record_hash(data: bytes) -> str:
    """``sha256=<urlsafe base64, no padding>`` as RECORD wants it."""
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def _metadata(spec: WheelSpec) -> str:
    lines = ["Metadata-Version: 2.1", "Name: " + spec.distribution.replace("_", "-"), "Version: " + spec.version]
    if spec.summary:
        lines.append("Summary: " + " ".join(spec.summary.split()))
    lines.append("Requires-Python: " + spec.requires_python)
    lines.extend("Requires-Dist: " + req for req in spec.requires_dist)
    return "\n".join(lines) + "\n"


def _wheel_file(spec: WheelSpec) -> str:
    return "Wheel-Version: 1.0\nGenerator: %s\nRoot-Is-Purelib: true\nTag: %s\n" % (spec.generator, TAG)


def _entry_points(groups: Mapping[str, Mapping[str, str]]) -> str:
    blocks = []
    for group in sorted(groups):
        entries = groups[group]
        if entries:
            blocks.append("[%s]\n%s\n" % (group, "\n".join("%s = %s" % (k, entries[k]) for k in sorted(entries))))
    return "\n".join(blocks)


def write_wheel(out_dir: str, spec: WheelSpec, files: Mapping[str, bytes]) -> str:
    """Write the wheel of ``files`` (archive path → bytes) into ``out_dir``; its path."""
    dist_info = "%s-%s.dist-info" % (spec.distribution, spec.version)
    contents = dict(files)
    contents[dist_info + "/METADATA"] = _metadata(spec).encode("utf-8")
    contents[dist_info + "/WHEEL"] = _wheel_file(spec).encode("utf-8")
    if any(spec.entry_points.values()):
        contents[dist_info + "/entry_points.txt"] = _entry_points(spec.entry_points).encode("utf-8")
    record_name = dist_info + "/RECORD"
    record_lines = ["%s,%s,%d" % (name, record_hash(data), len(data)) for name, data in sorted(contents.items())]
    record_lines.append(record_name + ",,")
    contents[record_name] = ("\n".join(record_lines) + "\n").encode("utf-8")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "%s-%s-%s.whl" % (spec.distribution, spec.version, TAG))
    tmp = path + ".part"
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        # RECORD goes last, as installers expect; everything else sorted for reproducible bytes.
        for name in [*sorted(n for n in contents if n != record_name), record_name]:
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, contents[name])
    os.replace(tmp, path)
    return path
