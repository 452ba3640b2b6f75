"""A persistent cache of judge replies, so that re-running an evaluation costs nothing.

Replies are stored in one SQLite file, keyed by a hash of everything that decides the reply: the
judge's identity (backend, model and the options sent with every request, such as temperature;
not the server's address, so a local server restarted on another port keeps its cache) and
version (``judge_version``: for a judge whose answers come from code, such as the offline
judge, a digest of that code and summscore's version, so an upgrade that changes the judge never
serves the older judge's answers), the task, the prompt, the output schema asked for, and the keys
the reply was masked with (a case's keys, see ``summscore.masking.replies``: the same request
in a case with other keys is another entry, so that no case reads a reply masked for another).
Only replies that were used (parsed and accepted) are stored, so a re-run asks again what failed.
Only the reply and its token counts are stored, never a credential. Reading is safe across
threads and processes; a damaged or unwritable cache is reported once and then bypassed, never
fatal.

Cache only judges that answer the same prompt the same way (temperature 0): a cached reply is
returned as it was first given.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import sqlite3
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from .._version import __version__
from ..judges.base import JudgeReply, JudgeRequest
from ..masking.replies import current_case_keys

__all__ = ["ReplyCache", "cache_identity", "default_cache_dir", "judge_version"]

_SCHEMA_VERSION = 2

_ADDRESS = re.compile(r"@[^\s,()\[\]{}]+")  # "@127.0.0.1:8099" in a judge's name
# Options of a judge that change its answers, read off the judge when it has them.
_ANSWER_OPTIONS = ("model", "temperature", "max_tokens", "system_prompt", "extra_body")


def cache_identity(judge: Any) -> str:
    """What identifies a judge's answers: its ``cache_identity`` attribute when it has one, else
    its name without the server address (``openai:gpt-4o-mini@127.0.0.1:8099`` ->
    ``openai:gpt-4o-mini``) plus the answer-deciding options it carries (model, temperature,
    max_tokens, system prompt, extra body) and its ``judge_version``."""
    explicit = getattr(judge, "cache_identity", None)
    if isinstance(explicit, str) and explicit:
        return explicit
    # (a cascade's name holds its LLM's address inside: only the address goes, not the rest)
    name = _ADDRESS.sub("", str(getattr(judge, "name", type(judge).__name__)))
    options = {k: getattr(judge, k) for k in _ANSWER_OPTIONS if hasattr(judge, k)}
    if options:
        name += " " + json.dumps(options, sort_keys=True, ensure_ascii=False, default=str)
    version = judge_version(judge)
    return f"{name} [{version}]" if version else name


def judge_version(judge: Any) -> str | None:
    """What changes when a judge's answers may change under the same name: its ``version``
    attribute when it has one; for a judge that answers from its own code rather than from a
    model reading the prompt (``reads_prompts`` False: the offline judge), summscore's version
    and a digest of the source files of the package that defines the judge, computed once per
    process, so nobody has to remember to bump a number. None for a judge that reads prompts:
    its model is in its name and the prompt itself in every key."""
    explicit = getattr(judge, "version", None)
    if isinstance(explicit, str) and explicit:
        return explicit
    from ..judges.cascade import CascadeJudge

    if isinstance(judge, CascadeJudge):  # its sure answers come from the offline judge's code
        return f"llm {cache_identity(judge.llm_judge)}; offline {judge_version(judge.offline)}"
    if getattr(judge, "reads_prompts", True) is not False:
        return None
    return f"summscore {__version__}, code {_code_digest(type(judge).__module__)}"


@functools.lru_cache(maxsize=16)
def _code_digest(module_name: str) -> str:
    """A digest of the source of ``module_name``'s package (every ``.py`` file under it), or of
    the module's own file; "unknown" where the source cannot be read (a frozen build)."""
    module = sys.modules.get(module_name)
    if module is None:
        return "unknown"
    folders = getattr(module, "__path__", None)
    file = getattr(module, "__file__", None)
    if folders:
        files = sorted(
            (path.relative_to(folder).as_posix(), path)
            for folder in map(Path, folders)
            for path in folder.rglob("*.py")
        )
    elif file:
        files = [(Path(file).name, Path(file))]
    else:
        return "unknown"
    digest = hashlib.blake2b(digest_size=8)
    try:
        for name, path in files:
            digest.update(name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    except OSError:
        return "unknown"
    return digest.hexdigest() if files else "unknown"


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/summscore`` or ``~/.cache/summscore``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "summscore"


class ReplyCache:
    """Judge replies in ``<directory>/replies.sqlite``."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.path = Path(directory).expanduser() / "replies.sqlite"
        self._lock = threading.Lock()
        self._broken = False
        self.hits = 0
        self.misses = 0
        self.damaged = 0  # entries that could not be read back (asked again)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS replies "
                "(key TEXT PRIMARY KEY, reply TEXT NOT NULL, created REAL NOT NULL)"
            )
            self._db.commit()
        except (OSError, sqlite3.Error) as exc:
            hint = (
                " (a damaged cache, or not summscore's: move it away to start a new one; it is "
                "left as it is)"
                if isinstance(exc, sqlite3.DatabaseError) and self.path.is_file()
                else ""
            )
            raise ValueError(f"reply_cache: cannot use {self.path}: {exc}{hint}") from None

    @staticmethod
    def key(identity: str, request: JudgeRequest, reads_prompts: bool) -> str:
        """Everything that decides the reply, hashed. ``identity`` is ``cache_identity``;
        the keys of the case being scored (which the reply is masked with before it is kept)
        are read from the context, as the masking reads them."""
        asked: Any = request.prompt if reads_prompts else dict(request.inputs)
        payload: dict[str, Any] = {
            "v": _SCHEMA_VERSION,
            "judge": identity,
            "task": request.task,
            "asked": asked,
            "schema": _schema_json(request.schema),
        }
        masked = current_case_keys()
        if masked:  # (absent when none: entries of cases without keys keep their keys)
            payload["masked"] = sorted(masked)
        encoded = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(encoded.encode("utf-8")).hexdigest()

    def get(self, key: str) -> JudgeReply | None:
        if self._broken:
            return None
        try:
            with self._lock:
                row = self._db.execute("SELECT reply FROM replies WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:
            self._give_up(exc)
            return None
        reply = None if row is None else self._decode(row[0])
        if reply is None:
            self.misses += 1
            return None
        self.hits += 1
        return reply

    def _decode(self, stored: Any) -> JudgeReply | None:
        """The reply stored in an entry, or None for an entry that is not one (damaged on disk,
        or written by something else): asked again, and replaced when the new reply is kept."""
        try:
            data = json.loads(stored)
            reply = JudgeReply(
                output=data["output"],
                input_tokens=_count_or_none(data.get("input_tokens")),
                output_tokens=_count_or_none(data.get("output_tokens")),
                cost=_cost_or_none(data.get("cost")),
            )
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            self.report_damaged(f"{type(exc).__name__} reading an entry")
            return None
        return reply

    def report_damaged(self, what: str, *, returned: bool = False) -> None:
        """Count an entry that could not be used (``returned``: one ``get`` gave back, which
        counted as a hit): its request goes to the judge, and the reply kept replaces the entry.
        Warned of once per cache."""
        with self._lock:
            self.damaged += 1
            if returned:
                self.hits -= 1
                self.misses += 1
            first = self.damaged == 1
        if first:
            warnings.warn(
                f"the reply cache {self.path} holds a damaged entry ({what}); its request is "
                "asked of the judge again and the entry replaced (reported once)",
                RuntimeWarning,
                stacklevel=3,
            )

    def put(self, key: str, reply: JudgeReply) -> None:
        if self._broken:
            return
        output = reply.output
        if isinstance(output, BaseModel):
            output = output.model_dump(mode="json")
        record = {
            "output": output,
            "input_tokens": reply.input_tokens,
            "output_tokens": reply.output_tokens,
            "cost": reply.cost,
        }
        try:
            encoded = json.dumps(record, ensure_ascii=False, default=str)
            with self._lock:
                self._db.execute(
                    "INSERT OR REPLACE INTO replies (key, reply, created) VALUES (?, ?, ?)",
                    (key, encoded, time.time()),
                )
                self._db.commit()
        except (sqlite3.Error, TypeError, ValueError) as exc:
            self._give_up(exc)

    def clear(self) -> None:
        with self._lock:
            self._db.execute("DELETE FROM replies")
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM replies").fetchone()[0])

    def _give_up(self, exc: Exception) -> None:
        self._broken = True
        warnings.warn(
            f"the reply cache {self.path} failed ({exc}); scoring goes on without it",
            RuntimeWarning,
            stacklevel=3,
        )


def _count_or_none(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"not a token count: {value!r}")
    return value


def _cost_or_none(value: Any) -> float | int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise ValueError(f"not a cost: {value!r}")
    return value


@functools.lru_cache(maxsize=64)
def _schema_json(schema: type[BaseModel]) -> dict[str, Any]:
    return schema.model_json_schema()
