"""The turn loop at flat per-turn cost (issue 14): read only the model's response.

``prefix.render_prefix`` renders a wrapper quine into the next prefix exactly as
``serialize_prefix`` does and remembers, with that text, a reader checkpoint built
from forms read once and reused across turns; ``read.read_completion`` resumes the
reader from it on the response. ``switches`` turns the whole path off (a full read
every turn) or checks every incremental read against the full one (on in tests).
"""

from .prefix import render_prefix
from .read import read_completion

__all__ = ["render_prefix", "read_completion"]
